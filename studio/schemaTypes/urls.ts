/**
 * Link and embed rules: the one copy of them. The Studio shows them to editors and the
 * build runs them on every published document (lib/content/schema-validation.ts).
 * Sanity's `uri({ allowRelative: true })` lets anything starting with "/" through as
 * "relative", including `//evil.example` and `/\evil.example`, which browsers open as
 * another site: these custom rules refuse them.
 */
import { defineArrayMember, defineField } from '@sanity/types'

/** One "/", then not a second "/" or "\" (browsers read `//host` and `/\host` as another site), no spaces or backslashes. */
const SITE_PATH = /^\/(?![/\\])[^\s\\]*$/
const SITE_ORIGIN = 'https://site.invalid'

/** An absolute https URL; the URL parser ignores leading spaces and letter case as browsers do. */
export function isHttps(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:'
  } catch {
    return false
  }
}

/** A path on this site: `SITE_PATH`, no control characters, and it resolves to this site's origin. */
export function isSitePath(value: string): boolean {
  if (!SITE_PATH.test(value)) return false
  if ([...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) return false
  try {
    return new URL(value, SITE_ORIGIN).origin === SITE_ORIGIN
  } catch {
    return false
  }
}

/**
 * Custom rule: an https URL, or a path on this site (`isSitePath`). Empty values are
 * left to `required()`.
 */
export function httpsUrlOrSitePath(value: unknown): true | string {
  if (value === undefined || value === null || value === '') return true
  if (typeof value !== 'string') return 'Must be text'
  if (value.startsWith('/'))
    return isSitePath(value)
      ? true
      : 'A path on this site starts with a single "/" (not "//" or "/\\") and has no spaces or backslashes'
  return isHttps(value) ? true : 'Use an address starting with https:// or a path on this site'
}

/** Custom rule for links in text: an https URL, a path on this site, or mailto:/tel:. */
export function textLinkHref(value: unknown): true | string {
  if (typeof value === 'string' && /^(mailto|tel):\S+$/i.test(value)) return true
  const result = httpsUrlOrSitePath(value)
  return result === true ? true : 'Use an https:// address, a path on this site, or a mailto:/tel: address'
}

/**
 * The link annotation of case study text: Sanity's default `link` (same name
 * and `href` field, so stored content and generated types are unchanged), but
 * https, site paths, mailto: and tel: only.
 */
export const linkAnnotation = defineArrayMember({
  type: 'object',
  name: 'link',
  title: 'Link',
  fields: [
    defineField({
      name: 'href',
      type: 'url',
      title: 'Link',
      description:
        'Where the link goes: an address starting with https://, a path on this site (e.g. /consultation), or a mailto:/tel: address.',
      validation: (rule) =>
        rule.uri({ scheme: ['https', 'mailto', 'tel'], allowRelative: true }).custom(textLinkHref),
    }),
  ],
})
