/**
 * Which document each page of a build shows as its main document: a case study's own
 * page shows that case study, and so does the small page at each of its old addresses
 * (its legacy id, a slug it had before: postbuild/redirects-file.ts), which redirects to
 * it; the other pages (`/`, `/case-studies`, `/sites`, `/consultation`) list many
 * documents and are no one document's. The postbuild writes it into the build as `.page-documents.json`, before
 * the completion marker; the publish gate (server/gate.ts) reads it to name, in each
 * problem, the documents an editor can act on (`document "<_id>"`, as content errors
 * name them). A dot file is never served (lib/build-output.ts) and no page refers to it,
 * so visitors' pages are the same with it or without it.
 */
import { decodedPath, isRecordOf, readBuildJson, urlPathOf, type Redirect } from './build-output.ts'

/** Name of the file inside a build. */
export const PAGE_DOCUMENTS_FILE = '.page-documents.json'

/** A page's URL path, percent-encoded as `urlPathOf` gives it -> the `_id`s of its main documents. */
export type PageDocuments = Record<string, string[]>

/** What the postbuild needs to know of a case study: its `_id` and its two addresses. */
export type CaseStudyAddress = { _id: string; slug: string; legacyId: string }

/**
 * The pages of the case studies: one per slug (the site's `case-studies/[slug]` route,
 * app/(site)/case-studies/[slug]/page.tsx), and the page at each old address, which
 * redirects to it.
 * @param studies every published case study
 * @param redirects the build's old addresses (`.redirects.json`, from caseStudyRedirects)
 * @returns each page's URL path (percent-encoded as `urlPathOf` gives it) -> the case study's `_id`
 */
export function caseStudyPageDocuments(
  studies: readonly CaseStudyAddress[],
  redirects: readonly Redirect[] = [],
): PageDocuments {
  const pages: PageDocuments = {}
  // The page file's own URL path: the key the gate looks a page up by.
  const add = (file: string, id: string) => (pages[urlPathOf(file)] ??= []).push(id)
  for (const study of studies) add(`case-studies/${study.slug}.html`, study._id)
  for (const redirect of redirects) {
    // A malformed address names no page.
    const address = decodedPath(redirect.from)
    if (address !== null) add(`${address.slice(1)}.html`, redirect._id)
  }
  return pages
}

/**
 * A build's page documents.
 * @param root absolute path of a build
 * @returns null when the build has none (built before the file existed) or it is not
 *   a map of paths to `_id` lists
 */
export async function readPageDocuments(root: string): Promise<PageDocuments | null> {
  const parsed = await readBuildJson(root, PAGE_DOCUMENTS_FILE)
  const valid = isRecordOf<string[]>(
    parsed,
    (ids) => Array.isArray(ids) && ids.every((id) => typeof id === 'string'),
  )
  return valid ? parsed : null
}
