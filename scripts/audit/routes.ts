/** The URLs the audits visit: every page of an export as its clean URL, and an unknown path for the 404 page (an old address's redirect page is no route). */
import { decodedPath, listFiles, urlPathOf, type Redirect } from '../../lib/build-output.ts'
import { NOT_FOUND_PAGES } from '../../site-build/next-export-shape.ts'

/** An unknown path, answered with the 404 page. */
export const NOT_FOUND_ROUTE = '/no-such-page-for-the-audit'

/** HTML files that are no route of their own: Next's internal 404 copy and the 404 page (audited at NOT_FOUND_ROUTE). */
const NOT_ROUTES = new Set<string>([NOT_FOUND_PAGES.twin, NOT_FOUND_PAGES.served])

/**
 * The export's HTML files (relative, `/` separators) as clean URLs (`sites.html` -> `/sites`), sorted, with
 * NOT_FOUND_ROUTE last; `skip`: path prefixes to leave out; `redirects`: old addresses, whose files are no route.
 */
export function routesOf(
  files: readonly string[],
  options: { skip?: readonly string[]; redirects?: readonly Redirect[] } = {},
): { url: string; file: string }[] {
  const skip = options.skip ?? []
  // The small page at `/case-studies/A%20B` is `case-studies/A B.html`.
  const moved = new Set(
    options.redirects?.flatMap((redirect) => {
      const address = decodedPath(redirect.from)
      return address === null ? [] : [`${address.slice(1)}.html`]
    }),
  )
  const routes = files
    .filter((file) => file.endsWith('.html'))
    .filter((file) => !NOT_ROUTES.has(file) && !skip.some((prefix) => file.startsWith(prefix)))
    .filter((file) => !moved.has(file))
    .map((file) => ({ url: urlPathOf(file), file }))
    .sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0))
  return files.includes(NOT_FOUND_PAGES.served)
    ? [...routes, { url: NOT_FOUND_ROUTE, file: NOT_FOUND_PAGES.served }]
    : routes
}

/** The HTML files of an export (or kept build), relative to it with `/` separators, sorted. */
export async function htmlFilesOf(root: string): Promise<string[]> {
  return listFiles(root, {
    filter: (file) => file.endsWith('.html') && !file.split('/').some((part) => part.startsWith('.')),
  })
}
