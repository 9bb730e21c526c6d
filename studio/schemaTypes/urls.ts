/** Link and embed rules, the one copy the Studio and the build both run (SECURITY.md, URL checks on content). */
import { defineArrayMember, defineField, type CustomValidator, type UrlRule } from '@sanity/types'
import { caseStudyHref, SITE_PAGES } from './sitePages.ts'

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

/** Custom rule: an https URL or a path on this site; empty is left to `required()`. */
export function httpsUrlOrSitePath(value: unknown): true | string {
  if (value === undefined || value === null || value === '') return true
  if (typeof value !== 'string') return 'Must be text'
  if (value.startsWith('/'))
    return (
      isSitePath(value) ||
      'A path on this site starts with a single "/" (not "//" or "/\\") and has no spaces or backslashes'
    )
  return isHttps(value) || 'Use an address starting with https:// or a path on this site'
}

/** Rule of a required link field: an https URL or a path on this site. */
export const httpsUrlOrSitePathRule = (rule: UrlRule) =>
  rule
    .required()
    .uri({ scheme: ['https'], allowRelative: true })
    .custom(httpsUrlOrSitePath)

/** Custom rule for links in text: an https URL, a path on this site, or mailto:/tel:. */
export function textLinkHref(value: unknown): true | string {
  if (typeof value === 'string' && /^(mailto|tel):\S+$/i.test(value)) return true
  return (
    httpsUrlOrSitePath(value) === true ||
    'Use an https:// address, a path on this site, or a mailto:/tel: address'
  )
}

const API_VERSION = '2025-02-19'

/** Published case studies that answer at `/case-studies/{$segment}` by slug or legacy id (product §3). */
const CASE_STUDIES_AT = `*[_type == "caseStudy" && !(_id in path("drafts.**")) && !(_id in path("versions.**")) && (slug.current == $segment || legacyId == $segment)]._id`

const pages: string[] = Object.values(SITE_PAGES).map((page) => page.href)
const caseStudiesPrefix = caseStudyHref('')

const orList = (items: string[]) =>
  items.length > 1 ? `${items.slice(0, -1).join(', ')} or ${items.at(-1)}` : (items[0] ?? '')

/**
 * Custom rule of links in text: a path on this site must lead to one of `SITE_PAGES` or a
 * published case study, matched as the route does (percent-decoded, case as written, no
 * trailing "/"); query and fragment are set aside, as the gate does. Other values are `textLinkHref`'s.
 * @returns true, or the message an editor reads, naming the path and the pages there are
 * @throws when the query fails
 */
export const textLinkHasPage: CustomValidator<string | undefined> = async (value, context) => {
  if (typeof value !== 'string' || !value.startsWith('/') || !isSitePath(value)) return true
  const hasPage = async (path: string): Promise<boolean> => {
    if (pages.includes(path)) return true
    if (!path.startsWith(caseStudiesPrefix)) return false
    const segment = path.slice(caseStudiesPrefix.length)
    if (!segment || segment.includes('/')) return false
    const owners = await context
      .getClient({ apiVersion: API_VERSION })
      .fetch<string[]>(CASE_STUDIES_AT, { segment })
    return owners.length > 0
  }
  const typed = value.replace(/[?#].*$/, '')
  let path: string | undefined
  try {
    path = decodeURIComponent(typed)
  } catch {
    path = undefined
  }
  if (path !== undefined && (await hasPage(path))) return true
  const trimmed = path?.replace(/\/+$/, '')
  if (trimmed && trimmed !== path && (await hasPage(trimmed)))
    return `There is no page at ${typed} on this site: remove the "/" at the end (${typed.replace(/\/+$/, '')}).`
  return `There is no page at ${typed} on this site: link to an existing case study, or to ${orList(pages)}.`
}

/** Sanity's default `link` annotation (same name and field, so stored content is unchanged) with the rules above. */
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
        'Where the link goes: an address starting with https://, a page of this site (e.g. /consultation, or /case-studies/ and a case study’s slug), or a mailto:/tel: address.',
      validation: (rule) =>
        rule
          .uri({ scheme: ['https', 'mailto', 'tel'], allowRelative: true })
          .custom(textLinkHref)
          .custom(textLinkHasPage),
    }),
  ],
})
