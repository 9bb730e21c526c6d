/**
 * Which document each page of a build shows as its main document: a case study's own
 * page (and the page of its legacy id) shows that case study; the other pages (`/`,
 * `/case-studies`, `/sites`, `/consultation`) list many documents and are no one
 * document's. The postbuild writes it into the build as `.page-documents.json`, before
 * the completion marker; the publish gate (server/gate.ts) reads it to name, in each
 * problem, the documents an editor can act on (`document "<_id>"`, as content errors
 * name them). A dot file is never served (lib/build-output.ts) and no page refers to it,
 * so visitors' pages are the same with it or without it.
 */
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { urlPathOf } from './build-output.ts'

/** Name of the file inside a build. */
export const PAGE_DOCUMENTS_FILE = '.page-documents.json'

/** A page's URL path, percent-encoded as `urlPathOf` gives it -> the `_id`s of its main documents. */
export type PageDocuments = Record<string, string[]>

/** What the postbuild needs to know of a case study: its `_id` and its two addresses. */
export type CaseStudyAddress = { _id: string; slug: string; legacyId: string }

/**
 * The pages of the case studies (the site's `case-studies/[slug]` route: one page per
 * slug and one per legacy id, app/case-studies/[slug]/page.tsx).
 * @param studies every published case study
 * @returns each page's URL path -> the case study's `_id`
 */
export function caseStudyPageDocuments(studies: CaseStudyAddress[]): PageDocuments {
  const pages: PageDocuments = {}
  for (const study of studies)
    for (const segment of new Set([study.slug, study.legacyId]))
      // The page file's own URL path: the key the gate looks a page up by.
      (pages[urlPathOf(`case-studies/${segment}.html`)] ??= []).push(study._id)
  return pages
}

/**
 * A build's page documents.
 * @param root absolute path of a build
 * @returns null when the build has none (built before the file existed) or it is not
 *   a map of paths to `_id` lists
 */
export async function readPageDocuments(root: string): Promise<PageDocuments | null> {
  let parsed: unknown
  try {
    parsed = JSON.parse(await readFile(path.join(root, PAGE_DOCUMENTS_FILE), 'utf8'))
  } catch {
    return null
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null
  const valid = Object.values(parsed).every(
    (ids) => Array.isArray(ids) && ids.every((id) => typeof id === 'string'),
  )
  return valid ? (parsed as PageDocuments) : null
}
