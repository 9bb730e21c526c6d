/** The one place that reads content: the Content Lake or the local NDJSON dataset, through one perspective (docs/content.md). */
// Types only: the client loads with the first Content Lake read, so a local build never pays for it.
import type { ClientPerspective, ContentSourceMap, QueryParams, SanityClient } from 'next-sanity'
import { DocumentId, getPublishedId, getVersionNameFromId, isDraftId, isVersionId } from '@sanity/id-utils'
import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { noteDraftsRead, oncePerRender } from './drafts-read.ts'
import { recordRead, type ReadScope } from './reads.ts'
import { snapshotQuery, type SnapshotQuery } from './scan-narrowing.ts'
import type { VettedView } from './draft-vetting.ts'
import type { StoredDocument } from './stored-document.ts'

/** Which version of each document a source reads (docs/content.md); all but `raw` give one document per published `_id`. */
export type Perspective = Exclude<ClientPerspective, 'previewDrafts'>

/** Where content comes from, and through which perspective. */
export type ContentSource = (
  | {
      kind: 'sanity'
      projectId: string
      dataset: string
      apiVersion: string
      token?: string
      /** Only for tests: a stand-in of Sanity's API, e.g. http://127.0.0.1:4010 */
      apiHost?: string
    }
  | { kind: 'local'; file: string }
) & {
  /** Default `published`; the preview server sets drafts or a release stack per request. */
  perspective?: Perspective
  /** Stega-encode strings with edit links to the Studio at `studioUrl` (preview only). */
  stega?: { studioUrl: string }
  preview?: true
  reads?: ReadScope
}

export const DEFAULT_API_VERSION = '2025-02-19'

/** The default local dataset: the seed, relative to the repository root. */
export const DEFAULT_LOCAL_DATASET = 'studio/seed/dataset.ndjson'

/** The build's content source from the environment: CONTENT_SNAPSHOT, else SANITY_*, else LOCAL_DATASET; always `published`. */
export function sourceFromEnv(env: Record<string, string | undefined> = process.env): ContentSource {
  const get = (name: string) => env[name]?.trim() || undefined
  const snapshot = get('CONTENT_SNAPSHOT')
  const projectId = get('SANITY_PROJECT_ID')
  if (snapshot || !projectId)
    return {
      kind: 'local',
      file: path.resolve(snapshot ?? get('LOCAL_DATASET') ?? DEFAULT_LOCAL_DATASET),
      perspective: 'published',
    }
  return {
    perspective: 'published',
    kind: 'sanity',
    projectId,
    dataset: get('SANITY_DATASET') ?? 'production',
    apiVersion: get('SANITY_API_VERSION') ?? DEFAULT_API_VERSION,
    token: get('SANITY_READ_TOKEN'),
    apiHost: get('SANITY_API_HOST'),
  }
}

const RELEASE_ID = /^r[A-Za-z0-9_-]+$/

/** A perspective from Presentation's cookie, checked (a lone release id as `[id, 'drafts']`); null for anything else. */
export function toPerspective(value: unknown): Perspective | null {
  const layers = typeof value === 'string' ? value.split(',').map((layer) => layer.trim()) : value
  if (!Array.isArray(layers) || layers.length === 0) return null
  const known = (layer: unknown) =>
    layer === 'drafts' ||
    layer === 'published' ||
    (typeof layer === 'string' && layer !== 'raw' && RELEASE_ID.test(layer))
  if (!layers.every(known)) return null
  if (layers.length === 1 && (layers[0] === 'published' || layers[0] === 'drafts')) return layers[0]
  return layers.length === 1 ? [layers[0] as string, 'drafts'] : (layers as string[])
}

/** True for every perspective but `published`: only editors' preview reads unpublished content. */
export const isPreviewPerspective = (perspective: Perspective = 'published') => perspective !== 'published'

/** True for the perspectives that put drafts or release versions over published documents: vetted first. */
export const vetsDrafts = (perspective: Perspective = 'published') =>
  perspective !== 'published' && perspective !== 'raw'

/** The layers a perspective reads, first wins, `published` last; null for `raw` (every document as stored). */
export function perspectiveLayers(perspective: Perspective = 'published'): string[] | null {
  if (perspective === 'raw') return null
  const stack = perspective === 'published' ? [] : perspective === 'drafts' ? ['drafts'] : perspective
  return [...stack.filter((layer) => layer !== 'published'), 'published']
}

/** `drafts`, `published` or the release name of a stored `_id`. @throws Error (from @sanity/id-utils) for an invalid id */
export function layerOf(id: string): string {
  const checked = DocumentId(id)
  if (isDraftId(checked)) return 'drafts'
  return isVersionId(checked) ? getVersionNameFromId(checked) : 'published'
}

/** Whether an `_id` is a published document's. @throws Error (from @sanity/id-utils) for an invalid id */
export const isPublishedId = (id: string): boolean => layerOf(id) === 'published'

/**
 * A dataset seen through a perspective as the Content Lake answers it: each document's version from
 * the first layer that has one, under the published `_id`. @throws Error naming an invalid `_id`
 */
export function withPerspective<Doc extends { _id: string }>(
  documents: Doc[],
  perspective: Perspective = 'published',
): Doc[] {
  const placed = placeInPerspective(documents, perspective)
  const [first] = placed.unplaced
  if (first) throw new Error(`document "${first.doc._id}": ${first.reason}`)
  return placed.documents
}

/** `withPerspective`, with the documents it cannot place set apart with the reason instead of thrown. */
export function placeInPerspective<Doc extends { _id: string }>(
  documents: Doc[],
  perspective: Perspective = 'published',
): { documents: Doc[]; unplaced: { doc: Doc; reason: string }[] } {
  const layers = perspectiveLayers(perspective)
  if (!layers) return { documents, unplaced: [] }
  const shown = new Map<string, { rank: number; doc: Doc }>()
  const unplaced: { doc: Doc; reason: string }[] = []
  for (const doc of documents) {
    let rank: number
    let publishedId: string
    try {
      rank = layers.indexOf(layerOf(doc._id))
      if (rank < 0) continue
      publishedId = getPublishedId(DocumentId(doc._id))
    } catch (error) {
      unplaced.push({
        doc,
        reason: `its id is not a document id Sanity can place: ${(error as Error).message}`,
      })
      continue
    }
    const current = shown.get(publishedId)
    if (!current || rank < current.rank) shown.set(publishedId, { rank, doc })
  }
  const view = Array.from(shown, ([publishedId, { doc }]) =>
    doc._id === publishedId ? doc : { ...doc, _id: publishedId, _originalId: doc._id },
  )
  return { documents: view, unplaced }
}

export type QueryResult<Query extends string> = Query extends keyof SanityQueries
  ? SanityQueries[Query]
  : unknown

export { referencedIds, type StoredDocument } from './stored-document.ts'

const datasetCache = new Map<string, { mtimeMs: number; documents: Promise<StoredDocument[]> }>()

/** Parses a dataset in Sanity's NDJSON format. @throws Error naming the file and line of a bad line */
export function parseNdjson(text: string, file = 'dataset'): StoredDocument[] {
  const documents: StoredDocument[] = []
  text.split('\n').forEach((line, index) => {
    if (!line.trim()) return
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch (error) {
      throw new Error(`${file}:${index + 1}: not valid JSON (${(error as Error).message})`)
    }
    const doc = value as Partial<StoredDocument> | null
    if (!doc || typeof doc !== 'object' || typeof doc._id !== 'string' || typeof doc._type !== 'string') {
      throw new Error(`${file}:${index + 1}: a document needs string "_id" and "_type" fields`)
    }
    documents.push(doc as StoredDocument)
  })
  return documents
}

/** Reads and parses a local NDJSON dataset, once per version (mtime) of the file. */
export async function loadLocalDataset(file: string): Promise<StoredDocument[]> {
  const { mtimeMs } = await stat(file)
  let cached = datasetCache.get(file)
  if (!cached || cached.mtimeMs !== mtimeMs) {
    cached = { mtimeMs, documents: readFile(file, 'utf8').then((text) => parseNdjson(text, file)) }
    datasetCache.set(file, cached)
  }
  return cached.documents
}

const ALL_DOCUMENTS = '*'

export type ContentLakeSource = Extract<ContentSource, { kind: 'sanity' }>

/** Sanity's client for a Content Lake source (no CDN, no stega). @throws Error for drafts without a read token */
export async function contentLakeClient(source: ContentLakeSource): Promise<SanityClient> {
  const perspective = source.perspective ?? 'published'
  if (isPreviewPerspective(perspective) && !source.token)
    throw new Error(`reading the "${perspective}" perspective of the Content Lake needs SANITY_READ_TOKEN`)
  const { createClient } = await import('next-sanity')
  return createClient({
    projectId: source.projectId,
    dataset: source.dataset,
    apiVersion: source.apiVersion,
    token: source.token,
    apiHost: source.apiHost,
    // A stand-in host has no project subdomains.
    useProjectHostname: !source.apiHost,
    useCdn: false,
    perspective,
  })
}

type LocalSource = Extract<ContentSource, { kind: 'local' }>

/** One value per version of a local dataset and perspective, made by `make` on first use. */
function perView<Value>(make: (stored: StoredDocument[], perspective?: Perspective) => Value) {
  const kept = new WeakMap<StoredDocument[], Map<string, Value>>()
  return async (source: LocalSource): Promise<Value> => {
    const stored = await loadLocalDataset(source.file)
    const key = JSON.stringify(source.perspective ?? 'published')
    let byPerspective = kept.get(stored)
    if (!byPerspective) kept.set(stored, (byPerspective = new Map()))
    if (!byPerspective.has(key)) {
      const value = make(stored, source.perspective)
      byPerspective.set(key, value)
      // A failure is not kept: the next read tries again.
      if (value instanceof Promise) value.catch(() => byPerspective.delete(key))
    }
    return byPerspective.get(key)!
  }
}

const localDocuments = perView(withPerspective)

// Loaded by the first preview read only: the build never pays for them.
const vetting = () => import('./draft-vetting.ts')
const stegaModule = () => import('./stega.ts')

type Finishing = {
  key: string
  finish: (result: unknown, documents: ReadonlyMap<string, StoredDocument>) => unknown
}

const readsForPreview = (source: ContentSource) => Boolean(source.preview) || vetsDrafts(source.perspective)

async function finishingOf(source: ContentSource): Promise<Finishing | undefined> {
  if (source.stega) {
    const { encodeLocalResult } = await stegaModule()
    const { studioUrl } = source.stega
    return {
      key: `stega ${studioUrl}`,
      finish: (result, documents) => encodeLocalResult(result, documents, studioUrl),
    }
  }
  if (!readsForPreview(source)) return undefined
  const { withoutStega } = await stegaModule()
  return { key: 'clean', finish: withoutStega }
}

/** The local dataset through a preview perspective, vetted once per version of the file and perspective. */
const localVetted = perView(vetStored)

async function vetStored(stored: StoredDocument[], perspective?: Perspective): Promise<VettedView> {
  const { vetView } = await vetting()
  const published = new Map(stored.map((doc) => [doc._id, doc]))
  const { documents, unplaced } = placeInPerspective(stored, perspective)
  return vetView(documents, (id) => published.get(id), unplaced)
}

type LakeVetted = VettedView & { revisions: string }

const lakeSnapshots = new Map<string, Promise<LakeVetted>>()

/** The Content Lake through a preview perspective: one raw snapshot a render, placed and vetted as a local file is. */
function lakeVetted(source: ContentLakeSource): Promise<LakeVetted> {
  const key = JSON.stringify([
    source.apiHost,
    source.projectId,
    source.dataset,
    source.token,
    source.perspective,
  ])
  return oncePerRender(key, () => lakeSnapshot(source, key))
}

function lakeSnapshot(source: ContentLakeSource, key: string): Promise<LakeVetted> {
  let pending = lakeSnapshots.get(key)
  if (!pending) {
    pending = (async () => {
      const raw = await contentLakeClient({ ...source, perspective: 'raw' })
      const stored = await raw.fetch<StoredDocument[]>(ALL_DOCUMENTS)
      return { ...(await vetStored(stored, source.perspective)), revisions: revisionsOf(stored) }
    })().finally(() => lakeSnapshots.delete(key))
    lakeSnapshots.set(key, pending)
  }
  return pending
}

const revisionsOf = (documents: { _id: string; _rev?: unknown }[]) =>
  JSON.stringify(
    documents.map((doc) => `${doc._id} ${String(doc._rev ?? '')}`).sort((a, b) => a.localeCompare(b)),
  )

const REVISIONS = '*{_id, _rev}'

/** A preview query on the Content Lake over vetted drafts only: the Lake's answer if nothing changed, else groq-js. */
async function runLakePreview<Result>(
  source: ContentLakeSource,
  query: string,
  params: QueryParams,
): Promise<Result> {
  const vetted = await lakeVetted(source)
  if (vetted.rejected.length === 0) {
    const answer = await fetchFromLake<Result>(source, query, params)
    const raw = await contentLakeClient({ ...source, perspective: 'raw' })
    const now = await raw.fetch<{ _id: string; _rev?: string }[]>(REVISIONS)
    if (revisionsOf(now) === vetted.revisions) {
      noteDraftsRead(vetted.shown, answer.result)
      return finishLakeAnswer(source, answer)
    }
  }
  const result = evaluateLocal(vetted.documents, query, params, await finishingOf(source))
  noteDraftsRead(vetted.shown, result)
  return result as Result
}

type LakeAnswer<Result> = { result: Result; resultSourceMap?: ContentSourceMap }

async function fetchFromLake<Result>(
  source: ContentLakeSource,
  query: string,
  params: QueryParams,
): Promise<LakeAnswer<Result>> {
  return (await contentLakeClient(source)).fetch<Result>(query, params, {
    filterResponse: false,
    returnQuery: false,
    ...(source.stega ? { resultSourceMap: 'withKeyArraySelector' as const } : {}),
  })
}

async function finishLakeAnswer<Result>(
  source: ContentLakeSource,
  answer: LakeAnswer<Result>,
): Promise<Result> {
  const { encodeLakeResult, withoutStega } = await stegaModule()
  return source.stega
    ? encodeLakeResult(answer.result, answer.resultSourceMap, source.stega.studioUrl)
    : withoutStega(answer.result)
}

/** The vetted view a preview perspective's queries read; null for `published` and `raw`. @throws on a failed read */
export async function previewView(source: ContentSource = sourceFromEnv()): Promise<VettedView | null> {
  if (!vetsDrafts(source.perspective)) return null
  return source.kind === 'sanity' ? lakeVetted(source) : localVetted(source)
}

/** Every document of the source through its perspective, assets included, not vetted. @throws on a failed read */
export async function readAllDocuments(source: ContentSource = sourceFromEnv()): Promise<StoredDocument[]> {
  if (source.kind === 'sanity')
    return (await contentLakeClient(source)).fetch<StoredDocument[]>(ALL_DOCUMENTS)
  return localDocuments(source)
}

/** Runs a GROQ query from `queries.ts` against the source, through its perspective. @throws on a failed read */
export async function runQuery<Query extends string>(
  query: Query,
  params: QueryParams = {},
  source: ContentSource = sourceFromEnv(),
): Promise<QueryResult<Query>> {
  if (source.kind === 'sanity') {
    if (vetsDrafts(source.perspective)) return runLakePreview<QueryResult<Query>>(source, query, params)
    if (readsForPreview(source))
      return finishLakeAnswer(source, await fetchFromLake<QueryResult<Query>>(source, query, params))
    return (await contentLakeClient(source)).fetch<QueryResult<Query>>(query, params)
  }
  const vetted = vetsDrafts(source.perspective) ? await localVetted(source) : null
  const view = vetted ? vetted.documents : await localDocuments(source)
  // Awaited first: inside Next's render the value can arrive as a promise.
  const result: unknown = await evaluateLocal(view, query, params)
  recordRead(source.reads, query, params, result)
  if (vetted) noteDraftsRead(vetted.shown, result)
  const finishing = await finishingOf(source)
  return (finishing ? evaluateLocal(view, query, params, finishing) : result) as QueryResult<Query>
}

const evaluated = new WeakMap<
  StoredDocument[],
  { results: Map<string, unknown>; evaluate: SnapshotQuery; byId: Map<string, StoredDocument> }
>()

/** Runs a query over a local view with groq-js, once per view and params (frozen), finished for a preview when asked. */
function evaluateLocal(
  dataset: StoredDocument[],
  query: string,
  params: QueryParams,
  finishing?: Finishing,
): unknown {
  let memo = evaluated.get(dataset)
  if (!memo) {
    const byId = new Map(dataset.map((doc) => [doc._id, doc]))
    evaluated.set(dataset, (memo = { results: new Map(), evaluate: snapshotQuery(dataset), byId }))
  }
  const key = `${query}\u0000${JSON.stringify(params)}${finishing ? `\u0000${finishing.key}` : ''}`
  if (!memo.results.has(key)) {
    const plain = () => memo.evaluate(query, params)
    const result = finishing ? finishing.finish(evaluateLocal(dataset, query, params), memo.byId) : plain()
    memo.results.set(key, deepFreeze(result))
  }
  return memo.results.get(key)
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}
