/** The site's headers as one `_headers` file (which the publisher applies too), each page's CSP allowing its inline scripts' hashes. */
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

/** An exported page: its percent-encoded clean URL path, and its markup or its inline scripts' hashes. */
export type HtmlPage = { urlPath: string } & (
  { html: string; scriptHashes?: undefined } | { html?: undefined; scriptHashes: readonly string[] }
)

/** Each page's `inlineScriptHashes` by file (a dot file): a page the next build reuses is not parsed again. */
export const SCRIPT_HASHES_FILE = '.script-hashes.json'

/** sha256 sources (`'sha256-…'`) of every inline `<script>` of an HTML document, in document order. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = elementsOf(html)
    .filter((element) => element.tagName === 'script' && attributeOf(element, 'src') === undefined)
    .filter((element) => !DATA_SCRIPT_TYPES.has(attributeOf(element, 'type') ?? ''))
    .map((element) => `'sha256-${createHash('sha256').update(textOf(element), 'utf8').digest('base64')}'`)
  return [...new Set(hashes)]
}

/** Script types that hold data, not code: a policy need not allow them. */
const DATA_SCRIPT_TYPES = new Set(['application/ld+json', 'application/json'])

/** What the embedded Studio's page needs beyond the site itself for a Sanity project. */
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

export type HeaderRule = { for: string; values: Record<string, string> }

/** Every header rule of a build; Cache-Control and CSP are never on `/*`: hosts join every matching rule's values. */
export function headerRules(
  pages: HtmlPage[],
  settings: IntegrationSettings,
  options: { studioProjectId?: string | null } = {},
): HeaderRule[] {
  const framedPath = settings.bookingWidgetUrl.startsWith('/')
    ? encodeURI(new URL(settings.bookingWidgetUrl, 'http://site').pathname)
    : null
  // Hosts match rule paths case-insensitively: pages differing only in case share one rule.
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
