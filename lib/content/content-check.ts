/**
 * The whole content check the build runs first (`scripts/check-content.ts`): every
 * published document is validated with the Studio schema's own rules
 * (`schema-rules.ts`), then every document the pages read is read as the pages
 * will read it, so bad content (a missing field, a `javascript:` or `http:` link, a
 * review too short) fails the build before Next.js starts, with the document `_id`
 * and the field.
 */
import {
  getCaseStudy,
  getCaseStudyCards,
  getCaseStudyPaths,
  getHomePage,
  getMediaAssets,
  getPortfolioSites,
  getSiteSettings,
} from './index.ts'
import { caseStudyPathsQuery } from './queries.ts'
import { assertValidSnapshot, type SchemaFindings } from './schema-rules.ts'
import { readAllDocuments, runQuery, sourceFromEnv, type ContentSource } from './source.ts'
import { checkDocument, downloadableUrl } from './build-rules.ts'

/**
 * Reads and validates everything the site is built from.
 * @param source default the environment's (`sourceFromEnv`), the published documents the
 *   build renders; a source through another perspective (drafts, a release) is validated
 *   the same way, as that perspective shows the dataset
 * @param only run the schema's rules on just these `_id`s (the documents a publish
 *   changed; `validateSnapshot`), and read just these case studies as their pages do; the
 *   other reads below still cover everything
 * @returns what the schema's rules found (warnings are printed, not thrown)
 * @throws ContentError naming the document and field (Error when something required is missing)
 */
export async function validateAllContent(
  source: ContentSource = sourceFromEnv(),
  only?: ReadonlySet<string>,
): Promise<SchemaFindings> {
  const findings = await assertValidSnapshot(await readAllDocuments(source), undefined, only)
  await getSiteSettings(source)
  await getHomePage(source)
  await getCaseStudyCards(source)
  // Each case study as its page reads it; after a publish of other documents, the changed only.
  const paths = only
    ? (await runQuery(caseStudyPathsQuery, {}, source)).filter((path) => only.has(path._id))
    : await getCaseStudyPaths(source)
  for (const { slug } of paths) await getCaseStudy(slug, source)
  await getPortfolioSites(source)
  // An asset's `url` is what the build downloads from Sanity: https only (absent in some local datasets).
  for (const asset of await getMediaAssets(source)) checkDocument(asset, { url: downloadableUrl })
  return findings
}
