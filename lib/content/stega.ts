/** Which strings of an editor's preview carry stega edit links, and to which Studio (visitors' pages never have stega). */
import {
  stegaClean,
  stegaEncodeSourceMap,
  type ContentSourceMap,
  type InitializedStegaConfig,
} from '@sanity/client/stega'
import { createDataAttribute } from 'next-sanity'
import { localSourceMap, type SourceDocument } from './source-map.ts'

/** Fields whose strings no page shows as text (addresses, names looked up, values filtered on): an invisible character would break them. */
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

/** Whether a string gets its edit link: the client's default rules, no asset document's field, none of `NOT_SHOWN_AS_TEXT`. */
export const stegaFilter: NonNullable<InitializedStegaConfig['filter']> = (props) => {
  const { sourcePath, sourceDocument, filterDefault } = props
  if (sourceDocument._type === 'sanity.imageAsset' || sourceDocument._type === 'sanity.fileAsset')
    return false
  const field = sourcePath.at(-1)
  if (typeof field === 'string' && NOT_SHOWN_AS_TEXT.has(field)) return false
  return filterDefault(props)
}

/** The stega configuration of an editor's preview, linking to the Studio at `studioUrl`. */
export function stegaConfig(studioUrl: string): InitializedStegaConfig {
  return { enabled: true, studioUrl, filter: stegaFilter }
}

/** A result with every string cleaned of stega: a draft's own edit link would mislead the overlays (docs/publishing.md). */
export function withoutStega<Result>(result: Result): Result {
  // Only strings change (`StegaCleaned` unbrands branded strings, which ours are not).
  return stegaClean(result) as Result
}

/** A local result (documents by the `_id` it names), cleaned, then encoded from `localSourceMap` as the Lake's would be. */
export function encodeLocalResult<Result>(
  result: Result,
  documents: ReadonlyMap<string, SourceDocument>,
  studioUrl: string,
): Result {
  return stegaEncodeSourceMap(withoutStega(result), localSourceMap(result, documents), stegaConfig(studioUrl))
}

/** The Content Lake's answer cleaned, then encoded from its `resultSourceMap` (clean without one). */
export function encodeLakeResult<Result>(
  result: Result,
  sourceMap: ContentSourceMap | undefined,
  studioUrl: string,
): Result {
  const clean = withoutStega(result)
  return sourceMap ? stegaEncodeSourceMap(clean, sourceMap, stegaConfig(studioUrl)) : clean
}

/** The `data-sanity` attribute of an element showing a string computed from a field (stega cannot carry it). */
export function editAttribute(
  studioUrl: string,
  document: { id: string; type: string; path: string },
): string {
  return createDataAttribute({ baseUrl: studioUrl, ...document }).toString()
}
