/**
 * A Content Source Map for a query result computed here (groq-js over a local dataset, or
 * the test stand-in of Sanity's API), in the shape the Content Lake answers with
 * `resultSourceMap` (Sanity's content-source-maps specification): the `documents` a result
 * came from, the `paths` in them, and `mappings` from a string's place in the result to a
 * document and a path. `stegaEncodeSourceMap` (`@sanity/client/stega`) then encodes the
 * result exactly as the client encodes the Lake's answer, so click-to-edit works offline.
 *
 * groq-js computes no map, so it is found by walking the result beside the documents it came
 * from: an object with an `_id` is that document (or, inside it, the object at the same
 * path); a string is mapped only when the document holds that very string there. Keyed
 * array items are matched by `_key`, others by position and value. A string the query
 * computed or renamed (`pt::text(issue)`, `"slug": slug.current`) is mapped only when it
 * occurs exactly once among the strings of the document it sits in; otherwise it stays
 * unmapped and gets no overlay, never a wrong one. The dataset's strings are never encoded
 * before the query runs: that would break its filters, ordering and `pt::text`.
 */
import type { ContentSourceMap, ContentSourceMapParsedPath } from '@sanity/client/csm'
import { jsonPath } from '@sanity/client/csm'

/** A document as the view gives it: a draft's own id, when it is one, as `_originalId`. */
export type SourceDocument = { _id: string; _type: string; _originalId?: string; [field: string]: unknown }

/** Where a part of the result comes from: a document, and the path inside it when known. */
type Origin = { doc: SourceDocument; path: ContentSourceMapParsedPath | null }

/** A segment of a document path: a field, an array index, or a keyed array item. */
type Segment = ContentSourceMapParsedPath[number]

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The value at a path of a document (segments as `sourcePathOf` makes them). */
function valueAt(doc: unknown, path: ContentSourceMapParsedPath): unknown {
  let value = doc
  for (const segment of path) {
    if (typeof segment === 'string') value = isRecord(value) ? value[segment] : undefined
    else if (typeof segment === 'number') value = Array.isArray(value) ? value[segment] : undefined
    else value = Array.isArray(value) ? value[segment._index] : undefined
    if (value === undefined) return undefined
  }
  return value
}

/** Each string of a document and where it is, system fields (`_id`, `_type`, …) left out. */
function stringsOf(doc: SourceDocument): Map<string, ContentSourceMapParsedPath[]> {
  const found = new Map<string, ContentSourceMapParsedPath[]>()
  const walk = (value: unknown, path: ContentSourceMapParsedPath): void => {
    if (typeof value === 'string') {
      const paths = found.get(value)
      if (paths) paths.push(path)
      else found.set(value, [path])
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, [...path, itemSegment(item, index)]))
    } else if (isRecord(value)) {
      for (const [key, child] of Object.entries(value)) if (!key.startsWith('_')) walk(child, [...path, key])
    }
  }
  walk(doc, [])
  return found
}

/** An array item's segment: by `_key` when it has one (as Sanity's paths name items), else its index. */
function itemSegment(item: unknown, index: number): Segment {
  const key = isRecord(item) ? item._key : undefined
  return typeof key === 'string' && key ? { _key: key, _index: index } : index
}

/**
 * The item of a document's array that a result's array item comes from: the one with the
 * same `_key`, or, for an item without one, the one at the same index when it holds the same
 * string (an unkeyed list of strings, such as a hero's selling points).
 * @returns the item's segment in the document, or null when none is certain
 */
function matchingItem(item: unknown, index: number, inDocument: unknown[]): Segment | null {
  const key = isRecord(item) ? item._key : undefined
  if (typeof key === 'string' && key) {
    const at = inDocument.findIndex((candidate) => isRecord(candidate) && candidate._key === key)
    return at < 0 ? null : { _key: key, _index: at }
  }
  if (typeof item === 'string') return inDocument[index] === item ? index : null
  return isRecord(item) ? index : null
}

/**
 * The Content Source Map of a result computed from `documents`.
 * @param result a query's result (plain JSON; not changed)
 * @param documents the documents the query read, by `_id` as the result names them (a
 *   perspective's view: published ids, a draft's stored id as `_originalId`)
 * @returns the map: each mapped string's result path to its document (stored `_id`, the
 *   draft's when a draft was shown) and path; unmapped strings have no entry
 */
export function localSourceMap(
  result: unknown,
  documents: ReadonlyMap<string, SourceDocument>,
): ContentSourceMap {
  const map: ContentSourceMap = { documents: [], paths: [], mappings: {} }
  const documentIndex = new Map<SourceDocument, number>()
  const pathIndex = new Map<string, number>()
  const strings = new WeakMap<SourceDocument, Map<string, ContentSourceMapParsedPath[]>>()

  const indexOf = (doc: SourceDocument) => {
    let index = documentIndex.get(doc)
    if (index === undefined) {
      index = map.documents.push({ _id: doc._originalId ?? doc._id, _type: doc._type }) - 1
      documentIndex.set(doc, index)
    }
    return index
  }
  const record = (
    resultPath: (string | number)[],
    doc: SourceDocument,
    sourcePath: ContentSourceMapParsedPath,
  ) => {
    const source = jsonPath(sourcePath)
    let path = pathIndex.get(source)
    if (path === undefined) pathIndex.set(source, (path = map.paths.push(source) - 1))
    map.mappings[jsonPath(resultPath)] = {
      type: 'value',
      source: { type: 'documentValue', document: indexOf(doc), path },
    }
  }
  /** The one place a string occurs in its document, or null when it is not there or in several. */
  const uniquePlace = (doc: SourceDocument, value: string) => {
    let found = strings.get(doc)
    if (!found) strings.set(doc, (found = stringsOf(doc)))
    const places = found.get(value)
    return places?.length === 1 ? places[0]! : null
  }

  const walk = (value: unknown, resultPath: (string | number)[], origin: Origin | null): void => {
    if (typeof value === 'string') {
      if (!origin || !value) return
      const exact = origin.path && valueAt(origin.doc, origin.path) === value ? origin.path : null
      const place = exact ?? uniquePlace(origin.doc, value)
      if (place) record(resultPath, origin.doc, place)
      return
    }
    if (Array.isArray(value)) {
      const inDocument = origin?.path ? valueAt(origin.doc, origin.path) : undefined
      value.forEach((item, index) => {
        const segment = Array.isArray(inDocument) ? matchingItem(item, index, inDocument) : null
        const itemOrigin = origin && {
          doc: origin.doc,
          path: segment === null ? null : [...origin.path!, segment],
        }
        walk(item, [...resultPath, index], itemOrigin)
      })
      return
    }
    if (!isRecord(value)) return
    // An object with the `_id` of a document the query read is that document (a projection
    // of it, or a reference followed with `->`).
    const doc = typeof value._id === 'string' ? documents.get(value._id) : undefined
    const here: Origin | null = doc ? { doc, path: [] } : origin
    for (const [key, child] of Object.entries(value)) {
      if (key.startsWith('_')) continue
      const path = here?.path && isRecord(valueAt(here.doc, here.path)) ? [...here.path, key] : null
      walk(child, [...resultPath, key], here && { doc: here.doc, path })
    }
  }
  walk(result, [], null)
  return map
}
