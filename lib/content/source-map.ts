/**
 * A Content Source Map computed for a local query result, in the Content Lake's shape, so stega
 * encodes it as the Lake's. A string is mapped only where certain (the very string at its path,
 * or occurring once in its document): unmapped gets no overlay, never a wrong one.
 */
import type { ContentSourceMap, ContentSourceMapParsedPath } from '@sanity/client/csm'
import { jsonPath } from '@sanity/client/csm'

/** A document as the view gives it: a draft's own id, when it is one, as `_originalId`. */
export type SourceDocument = { _id: string; _type: string; _originalId?: string; [field: string]: unknown }

type Origin = { doc: SourceDocument; path: ContentSourceMapParsedPath | null }

type Segment = ContentSourceMapParsedPath[number]

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

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

function itemSegment(item: unknown, index: number): Segment {
  const key = isRecord(item) ? item._key : undefined
  return typeof key === 'string' && key ? { _key: key, _index: index } : index
}

/**
 * The segment of the document's array item a result's item comes from: the same `_key`, or for an
 * unkeyed item the same index holding the same string; null when none is certain.
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
 * The Content Source Map of a result computed from `documents` (by the `_id` the result names;
 * a shown draft's stored id as `_originalId`, which the map names).
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
    // An object with the `_id` of a document the query read is that document (a projection, or a `->`).
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
