/**
 * Which documents each page of a build shows as its main ones (a case study's page and the small
 * pages at its old addresses), as `.page-documents.json`, for the publish gate's messages.
 */
import { decodedPath, isRecordOf, readBuildJson, urlPathOf, type Redirect } from './build-output.ts'

export const PAGE_DOCUMENTS_FILE = '.page-documents.json'

/** A page's URL path, percent-encoded as `urlPathOf` gives it -> the `_id`s of its main documents. */
export type PageDocuments = Record<string, string[]>

export type CaseStudyAddress = { _id: string; slug: string; legacyId: string }

/** Each case study page's URL path (its slug's, and each old address's) -> the case study's `_id`. */
export function caseStudyPageDocuments(
  studies: readonly CaseStudyAddress[],
  redirects: readonly Redirect[] = [],
): PageDocuments {
  const pages: PageDocuments = {}
  // The page file's own URL path: the key the gate looks a page up by.
  const add = (file: string, id: string) => (pages[urlPathOf(file)] ??= []).push(id)
  for (const study of studies) add(`case-studies/${study.slug}.html`, study._id)
  for (const redirect of redirects) {
    const address = decodedPath(redirect.from)
    if (address !== null) add(`${address.slice(1)}.html`, redirect._id)
  }
  return pages
}

/** A build's page documents; null when it has none or the file is not a map of paths to `_id` lists. */
export async function readPageDocuments(root: string): Promise<PageDocuments | null> {
  const parsed = await readBuildJson(root, PAGE_DOCUMENTS_FILE)
  const valid = isRecordOf<string[]>(
    parsed,
    (ids) => Array.isArray(ids) && ids.every((id) => typeof id === 'string'),
  )
  return valid ? parsed : null
}
