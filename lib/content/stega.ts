/**
 * Which strings of an editor's preview carry stega (the invisible edit links that
 * Presentation's and the standalone preview's click-to-edit overlays read), and to which
 * Studio they link: one configuration for both sources, the Content Lake's
 * (`encodeLakeResult`, the Lake's source map) and the local dataset's (`encodeLocalResult`,
 * the map from `source-map.ts`), so the two mark the same strings, and only with this
 * site's edit links: a result's own stega, saved in a draft, is cleaned first.
 * The visitors' export never has stega: the build reads with no stega configuration.
 */
import {
  stegaClean,
  stegaEncodeSourceMap,
  type ContentSourceMap,
  type InitializedStegaConfig,
} from '@sanity/client/stega'
import { createDataAttribute } from 'next-sanity'
import { localSourceMap, type SourceDocument } from './source-map.ts'

/**
 * Fields of this site's schema that hold strings no page shows as text: addresses a page
 * loads or links to, names a component looks up, values a query filters on. An invisible
 * character in one would break it (an encoded URL loads another page; an encoded icon name
 * finds no drawing), and an overlay on it would point at nothing on the page. Most are
 * caught by the client's own `filterDefault` too (valid URLs, `…Id`, `icon`, `slug`):
 * naming them here keeps a draft's value that is not (yet) a valid URL clean as well.
 */
const NOT_SHOWN_AS_TEXT = new Set([
  'bookingWidgetUrl',
  'bookingScriptUrl',
  'contactWebhookUrl',
  'siteUrl',
  'url',
  'icon',
  'legacyId',
  'placement',
])

/**
 * Whether one string of a result gets its edit link (stega's `filter`): the client's default
 * rules (no dates, URLs, slugs, ids or `_` fields), and none of an asset document's fields
 * (a file name or a path is never text on a page) nor of `NOT_SHOWN_AS_TEXT`.
 */
export const stegaFilter: NonNullable<InitializedStegaConfig['filter']> = (props) => {
  const { sourcePath, sourceDocument, filterDefault } = props
  if (sourceDocument._type === 'sanity.imageAsset' || sourceDocument._type === 'sanity.fileAsset')
    return false
  const field = sourcePath.at(-1)
  if (typeof field === 'string' && NOT_SHOWN_AS_TEXT.has(field)) return false
  return filterDefault(props)
}

/**
 * The stega configuration of an editor's preview: on, linking to the Studio at `studioUrl`
 * (SANITY_STUDIO_URL or the embedded `/studio`, lib/studio.ts), through `stegaFilter`.
 */
export function stegaConfig(studioUrl: string): InitializedStegaConfig {
  return { enabled: true, studioUrl, filter: stegaFilter }
}

/**
 * A result with no stega of its own: every string cleaned (`stegaClean`, the client's own
 * cleaner). A draft's text can carry an invisible payload of its own (an edit link to
 * anywhere, e.g. made with @vercel/stega's `vercelStegaCombine`); left in, the overlays
 * would read it, not the edit link the preview appends, and "Open in Studio" would lead
 * wherever the draft says. Every string of a preview's result goes through this before its
 * edit links are encoded, or instead of them.
 */
export function withoutStega<Result>(result: Result): Result {
  // The same shape: only strings change (`StegaCleaned` unbrands branded strings, which ours are not).
  return stegaClean(result) as Result
}

/**
 * A result computed from local documents, stega-encoded as the client encodes the Content
 * Lake's answer: its source map (`localSourceMap`, found on the result as the documents
 * hold it) through `stegaEncodeSourceMap`, over the result cleaned of any stega of its own
 * (`withoutStega`): each encoded string carries one edit link, to its field in this site's
 * Studio.
 * @param documents the documents the query read, by the `_id` the result names them by
 * @returns a new result; strings the map does not cover are left clean
 */
export function encodeLocalResult<Result>(
  result: Result,
  documents: ReadonlyMap<string, SourceDocument>,
  studioUrl: string,
): Result {
  return stegaEncodeSourceMap(withoutStega(result), localSourceMap(result, documents), stegaConfig(studioUrl))
}

/**
 * The Content Lake's answer to a preview's query, stega-encoded from the source map it
 * answered with (`resultSourceMap`), over the result cleaned of any stega of its own
 * (`withoutStega`): what the client does with stega on, with the cleaning it leaves out.
 * The map's mappings are by place in the result, so cleaning first changes none of them.
 * @param sourceMap the answer's `resultSourceMap`; without one, the result comes back clean
 */
export function encodeLakeResult<Result>(
  result: Result,
  sourceMap: ContentSourceMap | undefined,
  studioUrl: string,
): Result {
  const clean = withoutStega(result)
  return sourceMap ? stegaEncodeSourceMap(clean, sourceMap, stegaConfig(studioUrl)) : clean
}

/**
 * The `data-sanity` attribute of an element that shows a string the site computed from a
 * field (a case study card's 120-character issue preview, a portfolio site's host): the
 * edit link that field's own text would carry, which the overlays read from the element
 * (next-sanity's `createDataAttribute`). Stega cannot carry it: the computed text is not
 * the field's.
 * @param document the published `_id`, schema type, and field path (Sanity's notation)
 * @returns e.g. `id=caseStudy-a;type=caseStudy;path=issue;base=%2Fstudio`
 */
export function editAttribute(
  studioUrl: string,
  document: { id: string; type: string; path: string },
): string {
  return createDataAttribute({ baseUrl: studioUrl, ...document }).toString()
}
