/**
 * The publish gate: the fast checks a finished build passes before it may go live.
 * - The pages that changed against the live build (every page when nothing is live):
 *   a page's HTML is byte for byte the same from one build to the next unless its
 *   content changed (Next's per-build id sits only in the payload files).
 * - Their internal links and assets: every same-site `href`, `src` and `srcset` of a
 *   changed page must resolve to a file of the candidate build, by the same mapping
 *   the server and static hosts use (`resolvePath`). A link to `/case-studies/nope`
 *   keeps the old site live.
 * - The W3C Nu HTML checker (Java) on the changed pages, when Java is there; the
 *   publisher says at startup which checks it runs.
 * A failure becomes the build's reason, e.g.
 * "/case-studies/x links to /case-studies/nope, which does not exist".
 */
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { indexSite, resolvePath, urlPathOf, type SiteIndex } from '../lib/build-output.ts'
import { attributeOf, elementsOf } from '../lib/html-elements.ts'
import { checkHtml } from '../lib/nu-html-checker.ts'

/** What the gate found. `problems` empty: the build may go live. */
export type GateResult = { pages: string[]; problems: string[]; ms: number }

export type GateOptions = {
  /** Run the Nu HTML checker on the changed pages (needs Java 17). */
  html: boolean
}

/** Attributes that name a same-site resource, by element. */
const URL_ATTRIBUTES: Record<string, string[]> = {
  a: ['href'],
  link: ['href'],
  img: ['src', 'srcset'],
  source: ['src', 'srcset'],
  script: ['src'],
  iframe: ['src'],
}

/** The same-site paths a page refers to (`/x`, not `//host` or `https://...`), without query or hash. */
export function sitePathsOf(html: string): string[] {
  const paths = new Set<string>()
  for (const element of elementsOf(html)) {
    for (const name of URL_ATTRIBUTES[element.tagName] ?? []) {
      const value = attributeOf(element, name)
      if (!value) continue
      const urls =
        name === 'srcset' ? value.split(',').map((part) => part.trim().split(/\s+/)[0] ?? '') : [value]
      for (const url of urls) {
        if (!url.startsWith('/') || url.startsWith('//')) continue
        paths.add(url.replace(/[?#].*$/, '') || '/')
      }
    }
  }
  return [...paths]
}

/** HTML files of `candidate` that are new or differ from `live`'s. */
async function changedPages(candidate: string, index: SiteIndex, live: string | null): Promise<string[]> {
  const pages = [...index].filter((file) => file.endsWith('.html'))
  if (!live) return pages
  const changed = await Promise.all(
    pages.map(async (file) => {
      const now = await readFile(path.join(candidate, file))
      const before = await readFile(path.join(live, file)).catch(() => null)
      return before && before.equals(now) ? null : file
    }),
  )
  return changed.filter((file) => file !== null)
}

/**
 * Checks a finished build before it goes live (see the module comment).
 * @param candidate absolute folder of the finished build
 * @param live absolute folder of the live build, or null
 * @returns the pages checked, every problem in words (empty: pass) and the time taken
 * @throws Error when the HTML checker cannot run although `html` asked for it
 */
export async function checkCandidate(
  candidate: string,
  live: string | null,
  options: GateOptions,
): Promise<GateResult> {
  const started = performance.now()
  const index = await indexSite(candidate)
  const pages = await changedPages(candidate, index, live)
  const problems: string[] = []
  for (const page of pages) {
    const html = await readFile(path.join(candidate, page), 'utf8')
    for (const target of sitePathsOf(html))
      if (resolvePath(index, target).kind === 'not-found')
        problems.push(`${urlPathOf(page)} links to ${target}, which does not exist`)
  }
  if (options.html && pages.length)
    for (const error of await checkHtml(candidate, pages))
      problems.push(
        `${urlPathOf(error.file)} is not valid HTML: ${error.message}${error.line ? ` (line ${error.line})` : ''}`,
      )
  return { pages: pages.map(urlPathOf), problems, ms: Math.round(performance.now() - started) }
}
