/**
 * The one place that reads content. Two sources, one pipeline:
 * - Sanity's Content Lake through next-sanity's `createClient` (Sanity's client,
 *   as the design card asks), when SANITY_PROJECT_ID is set;
 * - otherwise `groq-js` (Sanity's own GROQ engine) over the local dataset file in
 *   Sanity's NDJSON export/import format (default `studio/seed/dataset.ndjson`).
 * The same GROQ strings run in both modes, so both give the same results.
 */
// next-sanity's root entry is plain ESM with no Next.js-only imports: it loads in Next's
// server build, under jest, and in `node scripts/*.ts` (Node 24 type stripping) alike.
import { createClient, type QueryParams } from 'next-sanity'
import { DocumentId, getPublishedId, isDraftId, isPublishedId } from '@sanity/id-utils'
import { evaluate, parse } from 'groq-js'
import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'

/**
 * Which version of each document a build reads (Sanity's perspectives): `published` for
 * the live site; `drafts` for a preview build (a document's draft where it has one, its
 * published version otherwise, under the published `_id`); `raw` for every document as
 * stored, drafts under their own `drafts.` ids.
 */
export type Perspective = 'published' | 'drafts' | 'raw'

/** Where content comes from, as read from the environment. */
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
  /** Default `published`; `drafts` with CONTENT_PERSPECTIVE=drafts (preview builds). */
  perspective?: Perspective
}

/** Sanity API version the site's queries are written against. */
export const DEFAULT_API_VERSION = '2025-02-19'

/** The default local dataset: the seed, relative to the repository root. */
export const DEFAULT_LOCAL_DATASET = 'studio/seed/dataset.ndjson'

/**
 * Reads the content source from environment variables (see `.env.example`):
 * SANITY_PROJECT_ID, SANITY_DATASET, SANITY_API_VERSION, SANITY_READ_TOKEN,
 * SANITY_API_HOST; or LOCAL_DATASET for the NDJSON file when no project is set.
 */
export function sourceFromEnv(env: Record<string, string | undefined> = process.env): ContentSource {
  const projectId = env.SANITY_PROJECT_ID?.trim()
  const perspective = perspectiveFromEnv(env.CONTENT_PERSPECTIVE)
  if (projectId) {
    return {
      perspective,
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
    perspective,
  }
}

/**
 * @throws Error naming the variable when CONTENT_PERSPECTIVE is set to something else
 */
function perspectiveFromEnv(value: string | undefined): Perspective {
  const perspective = value?.trim() || 'published'
  if (perspective !== 'published' && perspective !== 'drafts')
    throw new Error(`CONTENT_PERSPECTIVE must be "published" or "drafts", not "${perspective}"`)
  return perspective
}

/** True for the ids of drafts and release versions, which a published build never shows. */
export const isUnpublishedId = (id: string) => !isPublishedId(DocumentId(id))

/**
 * A stored dataset seen through a perspective, as Sanity's Content Lake answers it:
 * `drafts` puts each `drafts.<id>` in place of `<id>` (keeping its own id as
 * `_originalId`) and leaves release versions out; `published` and `raw` give the
 * documents as stored (the site's queries leave drafts out themselves).
 * @param documents a dataset in Sanity's export format (drafts under `drafts.` ids)
 */
export function withPerspective(
  documents: StoredDocument[],
  perspective: Perspective = 'published',
): StoredDocument[] {
  if (perspective !== 'drafts') return documents
  const drafts = new Map<string, StoredDocument>(
    documents
      .filter((doc) => isDraftId(DocumentId(doc._id)))
      .map((doc) => [getPublishedId(DocumentId(doc._id)), doc] as const),
  )
  const result: StoredDocument[] = []
  for (const doc of documents) {
    if (isUnpublishedId(doc._id)) continue
    const draft = drafts.get(doc._id)
    result.push(draft ? { ...draft, _id: doc._id, _originalId: draft._id } : doc)
    drafts.delete(doc._id)
  }
  // Drafts of documents never published yet.
  for (const [id, draft] of drafts) result.push({ ...draft, _id: id, _originalId: draft._id })
  return result
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

/** Every published document of the Content Lake, the assets included (the schema validation's snapshot). */
const ALL_PUBLISHED_DOCUMENTS = '*[!(_id in path("drafts.**")) && !(_id in path("versions.**"))]'

/** A Content Lake source: the project, dataset, API version, token and host. */
export type ContentLakeSource = Extract<ContentSource, { kind: 'sanity' }>

/**
 * Sanity's client for a Content Lake source, reading its perspective (default
 * `published`), never through the CDN.
 * @throws Error when a perspective other than `published` has no read token
 */
export function contentLakeClient(source: ContentLakeSource) {
  const perspective = source.perspective ?? 'published'
  if (perspective !== 'published' && !source.token)
    throw new Error(`reading the "${perspective}" perspective of the Content Lake needs SANITY_READ_TOKEN`)
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

/**
 * Every document of the source through its perspective: the local dataset file (as
 * stored, or with drafts in place for `drafts`), or every document of the Content Lake
 * in one query (drafts left out).
 * @throws when the dataset cannot be read or the Content Lake answers with an error
 */
export async function readAllDocuments(source: ContentSource = sourceFromEnv()): Promise<StoredDocument[]> {
  if (source.kind === 'sanity')
    return contentLakeClient(source).fetch<StoredDocument[]>(ALL_PUBLISHED_DOCUMENTS)
  return withPerspective(await loadLocalDataset(source.file), source.perspective)
}

/**
 * Runs a GROQ query against the configured source.
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
  if (source.kind === 'sanity') return contentLakeClient(source).fetch<QueryResult<Query>>(query, params)
  const dataset = withPerspective(await loadLocalDataset(source.file), source.perspective)
  const result = await evaluate(parse(query, { params }), { dataset, params })
  return (await result.get()) as QueryResult<Query>
}
