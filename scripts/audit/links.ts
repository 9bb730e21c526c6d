/** linkinator crawling the served site from `/`: internal pages, links, assets and `#fragment`s; other origins skipped. */
import { LinkChecker, LinkState } from 'linkinator'

/** A link that did not answer 2xx (or a redirect linkinator could not follow). */
export type BrokenLink = { url: string; status: number | null; parents: string[]; reason?: string }

/** What the crawl found (distinct URLs). */
export type LinkReport = { checked: number; skipped: number; broken: BrokenLink[] }

/** Crawls `origin/` recursively. */
export async function checkLinks(origin: string): Promise<LinkReport> {
  const checker = new LinkChecker()
  const result = await checker.check({
    path: `${origin}/`,
    recurse: true,
    concurrency: 8,
    timeout: 20_000,
    checkCss: true,
    // `/#contact` and the like: the target id must exist on the page.
    checkFragments: true,
    linksToSkip: async (link) => {
      try {
        return new URL(link).origin !== origin
      } catch {
        return true
      }
    },
  })
  // A broken URL is reported once per page that links to it (and once more from itself, when crawled).
  const broken = new Map<string, BrokenLink>()
  for (const link of result.links.filter((candidate) => candidate.state === LinkState.BROKEN)) {
    const seen = broken.get(link.url)
    const parent = link.parent && link.parent !== link.url ? path(link.parent, origin) : null
    if (seen) {
      if (parent && !seen.parents.includes(parent)) seen.parents.push(parent)
      continue
    }
    broken.set(link.url, {
      url: path(link.url, origin),
      status: link.status ?? null,
      parents: parent ? [parent] : [],
      reason: link.failureDetails
        ?.map((detail) => (detail instanceof Error ? detail.message : `HTTP ${detail.status}`))
        .join('; '),
    })
  }
  const distinct = (state: LinkState) =>
    new Set(result.links.filter((link) => link.state === state).map((link) => link.url)).size
  return {
    checked: distinct(LinkState.OK),
    skipped: distinct(LinkState.SKIPPED),
    broken: [...broken.values()],
  }
}

/** A URL of the served site without its (random) origin, for the report. */
function path(url: string, origin: string): string {
  return url.startsWith(origin) ? url.slice(origin.length) || '/' : url
}
