/** The content check the build runs first: the schema's rules, then every read as the pages will read it. */
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
 * Reads and validates everything the site is built from, through the source's perspective.
 * @param only run the schema's rules on just these `_id`s (a publish's changed ones), and read
 *   just these case studies; the other reads still cover everything
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
  const paths = only
    ? (await runQuery(caseStudyPathsQuery, {}, source)).filter((path) => only.has(path._id))
    : await getCaseStudyPaths(source)
  for (const { slug } of paths) await getCaseStudy(slug, source)
  await getPortfolioSites(source)
  // An asset's `url` is what the build downloads from: https only.
  for (const asset of await getMediaAssets(source)) checkDocument(asset, { url: downloadableUrl })
  return findings
}
