/**
 * The whole content check the build runs first (`scripts/sync-media.ts`): every
 * document the pages read is read and validated as the pages will read it, so
 * bad content (a missing field, a `javascript:` or `http:` link) fails the
 * build before Next.js starts, with the document `_id` and the field.
 */
import {
  getCaseStudy,
  getCaseStudyCards,
  getCaseStudyPaths,
  getHomePage,
  getPortfolioSites,
  getSiteSettings,
} from './index.ts'
import { mediaAssetsQuery } from './queries.ts'
import { runQuery, sourceFromEnv, type ContentSource } from './source.ts'
import { httpsUrl, validateDocument } from './validate.ts'

/**
 * Reads and validates everything the site is built from.
 * @throws ContentError naming the document and field (Error when something required is missing)
 */
export async function validateAllContent(source: ContentSource = sourceFromEnv()): Promise<void> {
  await getSiteSettings(source)
  await getHomePage(source)
  await getCaseStudyCards(source)
  for (const { slug } of await getCaseStudyPaths(source)) await getCaseStudy(slug, source)
  await getPortfolioSites(source)
  // An asset's `url` is what the build downloads from Sanity: https only (absent in some local datasets).
  for (const asset of await runQuery(mediaAssetsQuery, {}, source))
    validateDocument(asset, {
      url: (value) => (value === null || value === undefined ? null : httpsUrl(value)),
    })
}
