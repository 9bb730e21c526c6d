/**
 * The site's response headers, written once per build as `_headers` in the
 * Netlify / Cloudflare Pages format, so the same file configures a static host
 * and this project's server (the publisher's server/headers-file.ts applies it).
 *
 * Each page gets its own Content-Security-Policy: scripts are allowed by the
 * sha256 of each inline script in that page's HTML (Next's static export inlines
 * its RSC payload) instead of 'unsafe-inline', plus the site itself and exactly
 * the origins site settings name (booking widget, its embed script, contact webhook).
 */
import { createHash } from 'node:crypto'
import { BASE_HEADERS, IMMUTABLE, MEDIA_HEADERS, REVALIDATE } from '../lib/build-output.ts'
import { MEDIA_URL_DIR } from '../lib/content/image.ts'
import { STUDIO_BASE_PATH } from '../lib/studio.ts'
import { attributeOf, elementsOf, textOf } from '../lib/html-elements.ts'
import {
  contentSecurityPolicy,
  type ExtraSources,
  type IntegrationSettings,
} from '../lib/content-security-policy.ts'

/**
 * An exported HTML page: its clean URL path (percent-encoded), and its markup or the
 * hashes of its inline scripts (`inlineScriptHashes` of its markup, made already).
 */
export type HtmlPage = { urlPath: string } & (
  { html: string; scriptHashes?: undefined } | { html?: undefined; scriptHashes: readonly string[] }
)

/**
 * Each page's `inlineScriptHashes`, by its file (relative to the build, `/`-separated), in
 * a dot file (never served) of every build: a page the next build takes whole from this
 * one, by the same code, has the same hashes, and its HTML is not parsed again.
 */
export const SCRIPT_HASHES_FILE = '.script-hashes.json'

/**
 * sha256 sources (`'sha256-…'`) of every inline `<script>` of a page, in document order.
 * @param html a complete HTML document
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = elementsOf(html)
    .filter((element) => element.tagName === 'script' && attributeOf(element, 'src') === undefined)
    .filter((element) => !DATA_SCRIPT_TYPES.has(attributeOf(element, 'type') ?? ''))
    .map((element) => `'sha256-${createHash('sha256').update(textOf(element), 'utf8').digest('base64')}'`)
  return [...new Set(hashes)]
}

/** Script types that hold data, not code: a policy need not allow them (JSON-LD, Next's JSON). */
const DATA_SCRIPT_TYPES = new Set(['application/ld+json', 'application/json'])

/**
 * What the embedded Sanity Studio (/studio) needs beyond the site itself, for a project:
 * its API over https and WebSocket, the image CDN and sign-in avatars, Sanity's fonts,
 * and next-sanity's bridge script. Only the /studio page gets these.
 * @param projectId the Sanity project the Studio edits
 */
export function studioSources(projectId: string): ExtraSources {
  return {
    'script-src': ['https://core.sanity-cdn.com'],
    'img-src': [
      'blob:',
      'https://cdn.sanity.io',
      'https://lh3.googleusercontent.com',
      'https://avatars.githubusercontent.com',
    ],
    'font-src': ['https://design-system-static.sanity.io'],
    'connect-src': [
      `https://${projectId}.api.sanity.io`,
      `wss://${projectId}.api.sanity.io`,
      'https://api.sanity.io',
      'https://sanity-cdn.com',
    ],
  }
}

/** A block of `_headers`: a path pattern and its headers. */
export type HeaderRule = { for: string; values: Record<string, string> }

/**
 * Every header rule of a build: the base headers on `/*`, year-long caching for
 * hashed assets (`/_next/static/*`, content-addressed `/media/*`), content images'
 * policy under which a drawing opened on its own runs nothing (`MEDIA_HEADERS`), and for
 * each page its Content-Security-Policy and revalidation.
 * Cache-Control and CSP are never on `/*`: hosts join the values of every
 * matching rule, and two policies would both apply.
 */
export function headerRules(
  pages: HtmlPage[],
  settings: IntegrationSettings,
  options: { studioProjectId?: string | null } = {},
): HeaderRule[] {
  const framedPath = settings.bookingWidgetUrl.startsWith('/')
    ? encodeURI(new URL(settings.bookingWidgetUrl, 'http://site').pathname)
    : null
  // Hosts match rule paths case-insensitively, so pages whose paths differ only in case
  // (a legacy id and its slug, e.g. How-I-Saved-40-Hours) share one rule allowing both pages' scripts.
  const groups = new Map<string, { urlPath: string; hashes: string[] }>()
  for (const page of [...pages].sort((a, b) => a.urlPath.localeCompare(b.urlPath))) {
    const key = page.urlPath.toLowerCase()
    const group = groups.get(key) ?? { urlPath: page.urlPath, hashes: [] }
    group.hashes = [
      ...new Set([
        ...group.hashes,
        ...(page.html === undefined ? page.scriptHashes : inlineScriptHashes(page.html)),
      ]),
    ]
    groups.set(key, group)
  }
  const pageRules = [...groups.values()].map((group) => {
    const isStudio = group.urlPath === STUDIO_BASE_PATH
    const studio = isStudio && options.studioProjectId ? studioSources(options.studioProjectId) : undefined
    return {
      for: group.urlPath,
      values: {
        'Cache-Control': REVALIDATE,
        'Content-Security-Policy': contentSecurityPolicy(group.hashes, settings, {
          framedBySelf: group.urlPath.toLowerCase() === framedPath?.toLowerCase(),
          extra: studio,
        }),
      },
    }
  })
  // Studio's deep links (/studio/structure/...) are answered with the /studio page: same headers.
  const studioRule = pageRules.find((rule) => rule.for === STUDIO_BASE_PATH)
  // What `/*` gives already is left out: a host would join the two (`nosniff, nosniff`).
  const mediaHeaders = Object.entries(MEDIA_HEADERS).filter(([name, value]) => BASE_HEADERS[name] !== value)
  return [
    { for: '/*', values: BASE_HEADERS },
    { for: '/_next/static/*', values: { 'Cache-Control': IMMUTABLE } },
    {
      for: `${MEDIA_URL_DIR}/*`,
      values: { 'Cache-Control': IMMUTABLE, ...Object.fromEntries(mediaHeaders) },
    },
    ...pageRules,
    ...(studioRule ? [{ for: `${STUDIO_BASE_PATH}/*`, values: studioRule.values }] : []),
  ]
}

/** Writes rules in the `_headers` format: a path line, then indented `Name: value` lines. */
export function formatHeadersFile(rules: HeaderRule[]): string {
  const header =
    '# Generated at build time by scripts/postbuild.ts from the export and site settings. Do not edit.\n'
  return (
    header +
    rules
      .map(
        (rule) =>
          `${rule.for}\n${Object.entries(rule.values)
            .map(([name, value]) => `  ${name}: ${value}`)
            .join('\n')}`,
      )
      .join('\n') +
    '\n'
  )
}
