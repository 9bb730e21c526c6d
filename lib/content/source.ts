/**
 * The one place that reads content. Two sources, one pipeline:
 * - Sanity's Content Lake through next-sanity's `createClient` (Sanity's client,
 *   as the design card asks), when SANITY_PROJECT_ID is set;
 * - otherwise `groq-js` (Sanity's own GROQ engine) over the local dataset file in
 *   Sanity's NDJSON export/import format (default `studio/seed/dataset.ndjson`).
 * The same GROQ strings run in both modes, through the same perspective (the client's
 * for the Content Lake, `withPerspective` for the file), so both give the same results:
 * which of drafts, release versions and published documents a reader sees is decided
 * here, and nowhere else. The build (the static export) always reads published documents
 * (`sourceFromEnv`); editors' preview server reads drafts or a release, per request, by
 * passing its own `ContentSource` (lib/content/page-source.ts) to the same functions.
 */
// next-sanity's root entry is plain ESM with no Next.js-only imports: it loads in Next's
// server build, under jest, and in `node scripts/*.ts` (Node 24 type stripping) alike.
// Only its types are imported here: the client itself is loaded by the first Content Lake
// read (`contentLakeClient`), so a build from the local dataset never pays its ~0.35 s.
import type { ClientPerspective, ContentSourceMap, QueryParams, SanityClient } from 'next-sanity'
import { DocumentId, getPublishedId, getVersionNameFromId, isDraftId, isVersionId } from '@sanity/id-utils'
import { evaluateSync, parse, toJS } from 'groq-js'
import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { noteDraftsRead } from './drafts-read.ts'
import { recordRead, scannedTypes, type ReadScope } from './reads.ts'
import type { RejectedDraft, VettedView } from './draft-vetting.ts'

/**
 * Which version of each document a source reads: one of Sanity's perspectives, as
 * @sanity/client takes it (`previewDrafts`, the old name of `drafts`, left out).
 * - `published` (the build, so the live site): published documents only, no `drafts.`
 *   and no `versions.`;
 * - `drafts` (editors' preview, by default): each document's draft where it has one, its
 *   published version otherwise;
 * - a perspective stack, e.g. `['rSpring', 'drafts']` (the preview of a content release):
 *   each document's version in the first layer that has one, over its published version;
 * - `raw`: every document as stored, under its own id (the preview banner's list).
 * Everything but `raw` gives one document per published `_id`.
 */
export type Perspective = Exclude<ClientPerspective, 'previewDrafts'>

/**
 * Where content comes from, and through which perspective: the build's, from the
 * environment (`sourceFromEnv`), reads published documents; the preview server's
 * (lib/content/page-source.ts) is the same source with drafts or a release over them.
 */
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
  /** Default `published`, the build's; the preview server sets drafts or a release stack per request. */
  perspective?: Perspective
  /**
   * Stega-encode the result's strings for the click-to-edit overlays (Presentation's, and
   * the standalone preview's "Open in Studio"), linking each to its field in the Studio at
   * `studioUrl`: the Content Lake's through its own source map, the local dataset's through
   * one computed here (lib/content/stega.ts), each over a result cleaned of any stega of its
   * own. Editors' preview only.
   */
  stega?: { studioUrl: string }
  /**
   * An editor's preview render (the preview server's draft mode), whatever its
   * perspective: `published` too shows an editor's preview, never a visitor's page.
   */
  preview?: true
  /** Whose reads these are, for the build's dependency map (lib/content/reads.ts). */
  reads?: ReadScope
}

/** Sanity API version the site's queries are written against. */
export const DEFAULT_API_VERSION = '2025-02-19'

/** The default local dataset: the seed, relative to the repository root. */
export const DEFAULT_LOCAL_DATASET = 'studio/seed/dataset.ndjson'

/**
 * Reads the content source from environment variables (see `.env.example`):
 * SANITY_PROJECT_ID, SANITY_DATASET, SANITY_API_VERSION, SANITY_READ_TOKEN,
 * SANITY_API_HOST; or LOCAL_DATASET for the NDJSON file when no project is set.
 * Always through the `published` perspective: what the build exports is what visitors
 * may see, and no variable turns a build into a preview of drafts (the preview server
 * chooses its perspective per request, lib/content/page-source.ts).
 * CONTENT_SNAPSHOT, set by the build for its own steps (scripts/build.ts), comes first: the
 * one snapshot of published content the build validated, which every page then renders
 * from, whichever source it was taken from.
 */
export function sourceFromEnv(env: Record<string, string | undefined> = process.env): ContentSource {
  const snapshot = env.CONTENT_SNAPSHOT?.trim()
  if (snapshot) return { kind: 'local', file: path.resolve(snapshot), perspective: 'published' }
  const projectId = env.SANITY_PROJECT_ID?.trim()
  if (projectId) {
    return {
      perspective: 'published',
      kind: 'sanity',
      projectId,
      dataset: env.SANITY_DATASET?.trim() || 'production',
      apiVersion: env.SANITY_API_VERSION?.trim() || DEFAULT_API_VERSION,
      token: env.SANITY_READ_TOKEN?.trim() || undefined,
      apiHost: env.SANITY_API_HOST?.trim() || undefined,
    }
  }
  return {
    kind: 'local',
    file: path.resolve(env.LOCAL_DATASET?.trim() || DEFAULT_LOCAL_DATASET),
    perspective: 'published',
  }
}

/** A content release's id as Sanity makes them (`ReleaseId` in @sanity/client: `r` and more). */
const RELEASE_ID = /^r[A-Za-z0-9_-]+$/

/**
 * A perspective from outside (Presentation's perspective cookie), checked: `published`,
 * `drafts`, or a stack of content release ids, `drafts` and `published` (e.g.
 * `['rSpring', 'drafts']`). A lone release id reads as the Studio
 * shows that release: the stack `[releaseId, 'drafts']`.
 * @returns the perspective, or null for anything else (`raw` included: a page of every
 *   document side by side would show each one twice)
 */
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

/**
 * True for every perspective but `published`: the source shows unpublished content, which
 * only editors' preview reads, never the build of the live site.
 */
export const isPreviewPerspective = (perspective: Perspective = 'published') => perspective !== 'published'

/**
 * True for the perspectives whose view puts drafts or release versions over published
 * documents (`drafts`, a stack): what a reader sees through them is vetted by the schema's
 * rules first (`draft-vetting.ts`). Not `published`, which shows nothing unchecked, nor
 * `raw`, which gives the documents as stored (the banner's list, never a page).
 */
export const vetsDrafts = (perspective: Perspective = 'published') =>
  perspective !== 'published' && perspective !== 'raw'

/**
 * The layers a perspective reads, first wins, as the Content Lake stacks them: `published`
 * is always the last; `drafts` puts drafts over it; a stack puts its own layers, in order,
 * over it (a release id names that release's `versions.<releaseId>.` documents).
 * @returns null for `raw`, which reads every document as stored
 */
export function perspectiveLayers(perspective: Perspective = 'published'): string[] | null {
  if (perspective === 'raw') return null
  const stack = perspective === 'published' ? [] : perspective === 'drafts' ? ['drafts'] : perspective
  return [...stack.filter((layer) => layer !== 'published'), 'published']
}

/** The layer a stored document is in: `published`, `drafts`, or its release's id. */
function layerOf(id: DocumentId): string {
  if (isDraftId(id)) return 'drafts'
  if (isVersionId(id)) return getVersionNameFromId(id)
  return 'published'
}

/**
 * Whether a document `_id` is a published document's: not a draft (`drafts.…`) nor a
 * release version (`versions.…`). Only those are on the live site, so only their
 * publishing builds it (the publisher, `npm run publish:local`).
 * @throws Error (from @sanity/id-utils) when the id is not a valid document id
 */
export function isPublishedId(id: string): boolean {
  return layerOf(DocumentId(id)) === 'published'
}

/**
 * A stored dataset seen through a perspective, as Sanity's Content Lake answers it: of
 * each document, the version in the first layer of the perspective that has one, under
 * the published `_id` (a draft's or release version's own id kept as `_originalId`);
 * documents in no layer of it are left out. `raw` gives the documents as stored.
 * This is the one place that tells drafts, release versions and published documents apart
 * for a local dataset; the queries never filter them themselves.
 * @param documents a dataset in Sanity's export format (`drafts.<id>`, `versions.<releaseId>.<id>`)
 * @returns one document per published `_id`, in the order each first appears
 * @throws Error (from @sanity/id-utils) naming an `_id` that is not a valid document id
 *   (`placeInPerspective` sets such documents apart instead)
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

/**
 * `withPerspective`, with the stored documents it cannot place set apart instead of
 * thrown: an id that is no valid document id, or names no published document
 * (`drafts.drafts.<id>`, `versions.<release>.drafts.<id>`). A preview reports each one in
 * its banner and shows the rest (draft-vetting.ts); one odd id never hides every page.
 * @returns the view (as `withPerspective` gives it) and each document left out, with why
 */
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
      const id = DocumentId(doc._id)
      rank = layers.indexOf(layerOf(id))
      if (rank < 0) continue
      publishedId = getPublishedId(id)
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

/** The TypeGen result type of a query string from `queries.ts` (`unknown` for others). */
export type QueryResult<Query extends string> = Query extends keyof SanityQueries
  ? SanityQueries[Query]
  : unknown

/** A document as stored: at least `_id` and `_type`. */
export type StoredDocument = { _id: string; _type: string; [field: string]: unknown }

const datasetCache = new Map<string, { mtimeMs: number; documents: Promise<StoredDocument[]> }>()

/**
 * Parses a dataset file in Sanity's NDJSON format (one document a line).
 * @throws Error naming the file and line when a line is not a JSON document.
 */
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

/**
 * Reads and parses a local NDJSON dataset, once per version of the file: a build
 * parses it once, and `next dev` sees an edit without a restart.
 */
export async function loadLocalDataset(file: string): Promise<StoredDocument[]> {
  const { mtimeMs } = await stat(file)
  let cached = datasetCache.get(file)
  if (!cached || cached.mtimeMs !== mtimeMs) {
    cached = { mtimeMs, documents: readFile(file, 'utf8').then((text) => parseNdjson(text, file)) }
    datasetCache.set(file, cached)
  }
  return cached.documents
}

/**
 * Every document the client's perspective gives, the assets included (the schema
 * validation's snapshot): no filter of ours, the perspective decides.
 */
const ALL_DOCUMENTS = '*'

/** A Content Lake source: the project, dataset, API version, token and host. */
export type ContentLakeSource = Extract<ContentSource, { kind: 'sanity' }>

/**
 * Sanity's client for a Content Lake source, reading its perspective (default
 * `published`), never through the CDN, with no stega of its own: a preview's results are
 * cleaned, then encoded, here (`runLakePreview`), whatever the source's `stega`.
 * @throws Error when a perspective other than `published` has no read token
 */
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

/** Each local dataset's views, by perspective: made once per version of the file. */
const views = new WeakMap<StoredDocument[], Map<string, StoredDocument[]>>()
/** Each local dataset's vetted views, by perspective: vetted once per version of the file. */
const vettedViews = new WeakMap<StoredDocument[], Map<string, Promise<VettedView>>>()

/** The local dataset file seen through the source's perspective, as stored (not vetted). */
async function localDocuments(source: Extract<ContentSource, { kind: 'local' }>): Promise<StoredDocument[]> {
  const stored = await loadLocalDataset(source.file)
  const key = JSON.stringify(source.perspective ?? 'published')
  let byPerspective = views.get(stored)
  if (!byPerspective) views.set(stored, (byPerspective = new Map()))
  let view = byPerspective.get(key)
  if (!view) byPerspective.set(key, (view = withPerspective(stored, source.perspective)))
  return view
}

/** The vetting module, loaded by the first preview read only: the build never pays for it. */
const vetting = () => import('./draft-vetting.ts')
/** Stega's module (Sanity's client with it), loaded by the first preview read only, likewise. */
const stegaModule = () => import('./stega.ts')

/**
 * What a preview's local results go through before a page gets them: cleaned of any stega
 * of their own, then, with a Studio to link to, encoded with this site's edit links
 * (lib/content/stega.ts). `key` tells the finished results apart in the memo.
 */
type Finishing = {
  key: string
  finish: (result: unknown, documents: ReadonlyMap<string, StoredDocument>) => unknown
}

/** Whether a source reads for an editor's preview (draft mode, or a perspective with drafts). */
const readsForPreview = (source: ContentSource) => Boolean(source.preview) || vetsDrafts(source.perspective)

/** The finishing a source's results need, or undefined: the build's are taken as they are. */
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

/**
 * The local dataset file through a preview perspective (`vetsDrafts`), its drafts and
 * release versions vetted by the schema's rules (`vetView`): the one view every query of a
 * preview reads. Made once per version of the file and perspective; a new version (a
 * saved draft) reuses the verdicts on the drafts that did not change.
 */
async function localVetted(source: Extract<ContentSource, { kind: 'local' }>): Promise<VettedView> {
  const stored = await loadLocalDataset(source.file)
  const key = JSON.stringify(source.perspective)
  let byPerspective = vettedViews.get(stored)
  if (!byPerspective) vettedViews.set(stored, (byPerspective = new Map()))
  const kept = byPerspective
  let vetted = kept.get(key)
  if (!vetted) {
    vetted = vetStored(stored, source.perspective)
    kept.set(key, vetted)
    // A failure is not kept: the next read tries again.
    vetted.catch(() => kept.delete(key))
  }
  return vetted
}

/**
 * Stored documents through a preview perspective (`placeInPerspective`), vetted (`vetView`):
 * a document it cannot place is reported, like a draft that breaks a rule.
 */
async function vetStored(
  stored: StoredDocument[],
  perspective: Perspective | undefined,
): Promise<VettedView> {
  const { vetView } = await vetting()
  const published = new Map(stored.map((doc) => [doc._id, doc]))
  const { documents, unplaced } = placeInPerspective(stored, perspective)
  return vetView(documents, (id) => published.get(id), unplaced)
}

/** A vetted snapshot of the Content Lake, and its documents' revisions (`revisionsOf`). */
type LakeVetted = VettedView & { revisions: string }

/** Snapshots being fetched, by source: queries made meanwhile share one. */
const lakeSnapshots = new Map<string, Promise<LakeVetted>>()

/**
 * The Content Lake through a preview perspective, vetted: one raw snapshot of the dataset
 * (every document as stored, one query), seen through the perspective by `placeInPerspective`,
 * as a local file is (the tests compare it with the Lake's own reading), then vetted
 * (`vetView`) with the rules' queries answered by that snapshot, as the build answers them.
 * The Studio's rules would ask the Lake itself; the snapshot gives the same answers, and a
 * verdict rests on answers it can check again for free on the next snapshot.
 */
function lakeVetted(source: ContentLakeSource): Promise<LakeVetted> {
  const key = JSON.stringify([
    source.apiHost,
    source.projectId,
    source.dataset,
    source.token,
    source.perspective,
  ])
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

/** Every stored document's `_id` and `_rev`, as one string to compare. */
const revisionsOf = (documents: { _id: string; _rev?: unknown }[]) =>
  JSON.stringify(
    documents.map((doc) => `${doc._id} ${String(doc._rev ?? '')}`).sort((a, b) => a.localeCompare(b)),
  )

/** The `_id` and `_rev` of every document as stored: a small answer that tells a change. */
const REVISIONS = '*{_id, _rev}'

/**
 * Runs a query of a preview perspective on the Content Lake, over vetted drafts only.
 * - When every draft and release version the perspective shows passes the rules, the Lake
 *   runs the query, and answers with its source map, from which its strings get their
 *   stega encoding (Presentation's click-to-edit) once cleaned of any of their own
 *   (`encodeLakeResult`); its answer is taken only if the dataset's revisions, asked after
 *   it, are still those vetted (a draft saved in between was never checked).
 * - Otherwise (a draft breaks a rule, or the dataset changed meanwhile) the query runs here,
 *   with groq-js, over the vetted snapshot: the same engine and view as a local dataset's,
 *   its strings encoded from a source map computed here (lib/content/source-map.ts), and a
 *   change made meanwhile shows on the next request. Nothing unvetted is shown either way.
 * Three requests per query (snapshot, query, revisions) where the build makes one: editors'
 * preview only, never the build.
 */
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

/** A query's answer from the Content Lake: its result, and its source map when stega will need it. */
type LakeAnswer<Result> = { result: Result; resultSourceMap?: ContentSourceMap }

/** Asks the Content Lake a query through the source's perspective, with its source map when the source has stega. */
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

/**
 * A preview's answer from the Content Lake as a page gets it: cleaned of any stega of its
 * own, then, with stega, encoded from its source map (`encodeLakeResult`).
 */
async function finishLakeAnswer<Result>(
  source: ContentLakeSource,
  answer: LakeAnswer<Result>,
): Promise<Result> {
  const { encodeLakeResult, withoutStega } = await stegaModule()
  return source.stega
    ? encodeLakeResult(answer.result, answer.resultSourceMap, source.stega.studioUrl)
    : withoutStega(answer.result)
}

/**
 * The drafts and release versions a preview perspective would show but does not, because
 * they break a rule of the schema (`vetView`), for the preview's banner.
 * @returns none for `published` and `raw`, which show no draft (the build never asks)
 * @throws when the dataset cannot be read or the Content Lake answers with an error
 */
export async function previewRejections(source: ContentSource = sourceFromEnv()): Promise<RejectedDraft[]> {
  return (await previewView(source))?.rejected ?? []
}

/**
 * The vetted view a preview perspective's queries read (`vetView`): its documents, the
 * drafts and release versions among them, and those left out. The banner's lists come
 * from here, never from the drafts as stored.
 * @returns null for `published` and `raw`, which show no draft (the build never asks)
 * @throws when the dataset cannot be read or the Content Lake answers with an error
 */
export async function previewView(source: ContentSource = sourceFromEnv()): Promise<VettedView | null> {
  if (!vetsDrafts(source.perspective)) return null
  return source.kind === 'sanity' ? lakeVetted(source) : localVetted(source)
}

/**
 * Every document of the source through its perspective, the assets included: the local
 * dataset file (`withPerspective`), or every document the Content Lake gives with that
 * perspective, in one query. The build validates exactly what it renders. Through a preview
 * perspective this is the snapshot as stored, drafts not vetted (the snapshot the schema's
 * rules run on); what queries read is vetted (`runQuery`).
 * @throws when the dataset cannot be read or the Content Lake answers with an error
 */
export async function readAllDocuments(source: ContentSource = sourceFromEnv()): Promise<StoredDocument[]> {
  if (source.kind === 'sanity')
    return (await contentLakeClient(source)).fetch<StoredDocument[]>(ALL_DOCUMENTS)
  return localDocuments(source)
}

/**
 * Every `_id` the documents reference, at any depth (each `_ref` of a reference, weak or
 * strong, as GROQ's `references()` reads them).
 * @param documents stored documents (any shape)
 * @returns the referenced ids, each once
 */
export function referencedIds(documents: readonly StoredDocument[]): Set<string> {
  const ids = new Set<string>()
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) walk(item)
    else if (value && typeof value === 'object') {
      const ref = (value as { _ref?: unknown })._ref
      if (typeof ref === 'string') ids.add(ref)
      for (const child of Object.values(value)) walk(child)
    }
  }
  for (const doc of documents) walk(doc)
  return ids
}

/**
 * Runs a GROQ query against the configured source, through its perspective.
 * @param query a GROQ string from `queries.ts`
 * @param params GROQ parameters, e.g. `{ slug: 'um-al-hayaa' }`
 * @returns the query's result (shape given by its TypeGen result type)
 * @throws when the dataset cannot be read or the Content Lake answers with an error
 */
export async function runQuery<Query extends string>(
  query: Query,
  params: QueryParams = {},
  source: ContentSource = sourceFromEnv(),
): Promise<QueryResult<Query>> {
  if (source.kind === 'sanity') {
    if (vetsDrafts(source.perspective)) return runLakePreview<QueryResult<Query>>(source, query, params)
    // An editor's preview of published documents: no draft to vet, the same cleaning and stega.
    if (readsForPreview(source))
      return finishLakeAnswer(source, await fetchFromLake<QueryResult<Query>>(source, query, params))
    return (await contentLakeClient(source)).fetch<QueryResult<Query>>(query, params)
  }
  // A preview's drafts are vetted by the schema's rules before any query sees them.
  const vetted = vetsDrafts(source.perspective) ? await localVetted(source) : null
  const view = vetted ? vetted.documents : await localDocuments(source)
  // Awaited before it is recorded: inside Next's render the value can arrive as a promise
  // (the recording hashes what the page receives, never a pending promise).
  const result: unknown = await evaluateLocal(view, query, params)
  recordRead(source.reads, query, params, result)
  // The drafts this read holds, for a render that fails to name (drafts-read.ts).
  if (vetted) noteDraftsRead(vetted.shown, result)
  const finishing = await finishingOf(source)
  return (finishing ? evaluateLocal(view, query, params, finishing) : result) as QueryResult<Query>
}

/**
 * Each local view's evaluated queries (by query and parameters, and how they were finished
 * for a preview: `Finishing.key`), and its documents by `_id`.
 */
const evaluated = new WeakMap<
  StoredDocument[],
  {
    results: Map<string, unknown>
    byId: Map<string, StoredDocument>
    byType: Map<string, StoredDocument[]>
  }
>()

/**
 * Runs a query over one version of a local dataset's view with groq-js, synchronously
 * (several times faster than its async evaluator), over only the types its scans can
 * match (`scannedTypes`), and with references resolved through an index by `_id` (groq-js
 * alone scans the dataset for each one). A view never changes
 * (a new version of the file is a new view), so each query and its parameters run once
 * per view: a build renders every page from one snapshot, and the layout's, the page's
 * and its metadata's reads of the same document cost one evaluation. The result is
 * shared between callers, so it is frozen: a caller that changed it would throw.
 * With a `finishing` (an editor's preview), the result's strings are cleaned of stega of
 * their own and carry their edit links (`encodeLocalResult`), finished once per view too.
 */
function evaluateLocal(
  dataset: StoredDocument[],
  query: string,
  params: QueryParams,
  finishing?: Finishing,
): unknown {
  let memo = evaluated.get(dataset)
  if (!memo) {
    memo = {
      results: new Map(),
      byId: new Map(dataset.map((doc) => [doc._id, doc])),
      byType: Map.groupBy(dataset, (doc) => doc._type),
    }
    evaluated.set(dataset, memo)
  }
  const key = `${query}\u0000${JSON.stringify(params)}`
  if (finishing) {
    const finishedKey = `${key}\u0000${finishing.key}`
    if (!memo.results.has(finishedKey)) {
      const plain = evaluateLocal(dataset, query, params)
      memo.results.set(finishedKey, deepFreeze(finishing.finish(plain, memo.byId)))
    }
    return memo.results.get(finishedKey)
  }
  if (memo.results.has(key)) return memo.results.get(key)
  const { byId, byType } = memo
  // Only the documents the query's `*` scans can match (every `*[...]` filtered by type);
  // references resolve through the index, whatever their type.
  const types = scannedTypes(query, params)
  // `toJS`: the value itself (a synchronous evaluation's `get()` still answers with a promise).
  const result = deepFreeze(
    toJS(
      evaluateSync(parse(query, { params }), {
        dataset: types ? types.flatMap((type) => byType.get(type) ?? []) : dataset,
        params,
        dereference: ({ _ref }) => byId.get(_ref) ?? null,
      }),
    ),
  )
  memo.results.set(key, result)
  return result
}

/** Freezes a query's result and everything in it (it is plain JSON data). */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}
