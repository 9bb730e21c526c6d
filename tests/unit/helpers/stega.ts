/** Test helpers: stega, as Sanity's client writes it in an editor's preview, and how to find it. */
import { stegaClean, stegaEncodeSourceMap, type ContentSourceMap } from '@sanity/client/stega'

/**
 * `value` with every string stega-encoded by Sanity's own encoder, as the client returns a
 * query result of `document` (a source map whose one mapping sends the result's paths to
 * the same paths of the document). The filter keeps every string: URLs, slugs, ids and keys
 * too, which the client's default filter would leave clean, so a component cannot rely on it.
 */
export function encode<T>(value: T, document: { _id: string; _type: string }): T {
  const sourceMap: ContentSourceMap = {
    documents: [document],
    paths: ['$'],
    mappings: { $: { type: 'value', source: { type: 'documentValue', document: 0, path: 0 } } },
  }
  return stegaEncodeSourceMap(value, sourceMap, { enabled: true, studioUrl: '/studio', filter: () => true })
}

/** The characters stega uses (zero-width ones, the word joiners, BOM, the tag range). */
const STEGA_CHARACTERS = /[\u200B-\u200D\u2060-\u2064\uFEFF\u{1D173}-\u{1D17A}\u{E0000}-\u{E007F}]/u

/** Does `text` carry stega, as it is or percent-encoded into a URL? */
export function hasStega(text: string): boolean {
  if (STEGA_CHARACTERS.test(text) || stegaClean(text) !== text) return true
  try {
    const decoded = decodeURIComponent(text)
    return decoded !== text && hasStega(decoded)
  } catch {
    return false
  }
}
