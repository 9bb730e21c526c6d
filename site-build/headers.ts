/** Every header of the live site: the constants, each page's Content-Security-Policy, and the `_headers` file the publisher applies too. */
import { createHash } from 'node:crypto'
import { MEDIA_URL_DIR } from '../lib/content/image.ts'
import { STUDIO_BASE_PATH } from '../lib/studio.ts'
import { attributeOf, elementsOf, textOf } from '../lib/html-elements.ts'

/** Cache rule for HTML and other unhashed files: always revalidate. */
export const REVALIDATE = 'public, max-age=0, must-revalidate'
/** Cache rule for content-hashed files: a year. */
export const IMMUTABLE = 'public, max-age=31536000, immutable'

export const BASE_HEADERS: Record<string, string> = {
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  // No `interest-cohort`: FLoC is gone and Chrome reports the feature as unrecognised.
  'Permissions-Policy':
    'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
}

/** Headers of every content image's answer (`/media/*`, `/preview-media/*`): a drawing opened alone runs nothing (SECURITY.md). */
export const MEDIA_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox",
  'X-Content-Type-Options': 'nosniff',
}

export type IntegrationSettings = {
  /** An https URL or a path on this site. */
  bookingWidgetUrl: string
  bookingScriptUrl?: string | null
  contactWebhookUrl: string
}

/** The origin of an https URL from settings, or null for a path. @throws Error for anything else (a guard) */
export function externalOrigin(url: string | null | undefined): string | null {
  if (!url || url.startsWith('/')) return null
  const parsed = new URL(url)
  if (parsed.protocol !== 'https:') throw new Error(`Only https origins may be allowed, not "${url}"`)
  return parsed.origin
}

/** More sources for some directives of one page's policy, e.g. `{ 'connect-src': ['https://x'] }`. */
export type ExtraSources = Partial<Record<string, string[]>>

/**
 * One page's Content-Security-Policy: the site and exactly the origins settings name.
 * `scriptSources`: its inline scripts' hashes, or a nonce; `framedBySelf`: a page this site frames.
 */
export function contentSecurityPolicy(
  scriptSources: string[],
  settings: IntegrationSettings,
  options: { framedBySelf?: boolean; frameAncestors?: string[]; extra?: ExtraSources } = {},
): string {
  const booking = externalOrigin(settings.bookingWidgetUrl)
  const bookingScript = externalOrigin(settings.bookingScriptUrl)
  const webhook = externalOrigin(settings.contactWebhookUrl)
  const directives: [string, (string | null)[]][] = [
    ['default-src', [`'self'`]],
    ['script-src', [`'self'`, ...scriptSources, bookingScript]],
    ['style-src', [`'self'`, `'unsafe-inline'`]],
    ['img-src', [`'self'`, 'data:']],
    ['font-src', [`'self'`]],
    ['connect-src', [`'self'`, webhook]],
    ['frame-src', [`'self'`, booking]],
    ['form-action', [`'self'`, webhook]],
    ['base-uri', [`'none'`]],
    ['object-src', [`'none'`]],
    ['frame-ancestors', options.frameAncestors ?? [options.framedBySelf ? `'self'` : `'none'`]],
  ]
  return directives
    .map(([name, sources]) => {
      const all = [...sources, ...(options.extra?.[name] ?? [])].filter(Boolean)
      return `${name} ${[...new Set(all)].join(' ')}`
    })
    .join('; ')
}

/** An exported page: its percent-encoded clean URL path, and its markup or its inline scripts' hashes. */
export type HtmlPage = { urlPath: string } & (
  { html: string; scriptHashes?: undefined } | { html?: undefined; scriptHashes: readonly string[] }
)

/** Each page's `inlineScriptHashes` by file (a dot file): a page the next build reuses is not parsed again. */
export const SCRIPT_HASHES_FILE = '.script-hashes.json'

/** Script types that hold data, not code: a policy need not allow them. */
const DATA_SCRIPT_TYPES = new Set(['application/ld+json', 'application/json'])

/** sha256 sources (`'sha256-…'`) of every inline `<script>` of an HTML document, in document order. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = elementsOf(html)
    .filter((element) => element.tagName === 'script' && attributeOf(element, 'src') === undefined)
    .filter((element) => !DATA_SCRIPT_TYPES.has(attributeOf(element, 'type') ?? ''))
    .map((element) => `'sha256-${createHash('sha256').update(textOf(element), 'utf8').digest('base64')}'`)
  return [...new Set(hashes)]
}

/** What the embedded Studio's page needs beyond the site itself for a Sanity project. */
export const studioSources = (projectId: string): ExtraSources => ({
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
})

export type HeaderRule = { for: string; values: Record<string, string> }

/** Every header rule of a build; Cache-Control and CSP are never on `/*`: hosts join every matching rule's values. */
export function headerRules(
  pages: HtmlPage[],
  settings: IntegrationSettings,
  options: { studioProjectId?: string | null } = {},
): HeaderRule[] {
  const framedPath = settings.bookingWidgetUrl.startsWith('/')
    ? encodeURI(new URL(settings.bookingWidgetUrl, 'http://site').pathname).toLowerCase()
    : null
  // Hosts match rule paths case-insensitively: pages differing only in case share one rule.
  const groups = new Map<string, { urlPath: string; hashes: Set<string> }>()
  for (const page of [...pages].sort((a, b) => a.urlPath.localeCompare(b.urlPath))) {
    const key = page.urlPath.toLowerCase()
    const group = groups.get(key) ?? { urlPath: page.urlPath, hashes: new Set() }
    for (const hash of page.html === undefined ? page.scriptHashes : inlineScriptHashes(page.html))
      group.hashes.add(hash)
    groups.set(key, group)
  }
  const pageRules = [...groups].map(([key, { urlPath, hashes }]) => ({
    for: urlPath,
    values: {
      'Cache-Control': REVALIDATE,
      'Content-Security-Policy': contentSecurityPolicy([...hashes], settings, {
        framedBySelf: key === framedPath,
        extra:
          urlPath === STUDIO_BASE_PATH && options.studioProjectId
            ? studioSources(options.studioProjectId)
            : undefined,
      }),
    },
  }))
  // The Studio's deep links are answered with the /studio page: same headers.
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
export const formatHeadersFile = (rules: HeaderRule[]): string =>
  '# Generated at build time by site-build/finalize.ts from the export and site settings. Do not edit.\n' +
  rules
    .map((rule) =>
      [rule.for, ...Object.entries(rule.values).map(([name, value]) => `  ${name}: ${value}`)].join('\n'),
    )
    .join('\n') +
  '\n'
