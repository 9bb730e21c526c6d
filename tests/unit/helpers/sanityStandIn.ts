/**
 * A small local stand-in of Sanity's HTTP API, enough for the site and the seed
 * script to run the real `@sanity/client` offline:
 * - `GET|POST /v{apiVersion}/data/query/{dataset}`: answers like the Content Lake
 *   (`{ query, result, ms }`) by evaluating the query with groq-js, through the request's
 *   `perspective` (`raw`, `published`, `drafts` or a comma-separated stack such as
 *   `rSpring,drafts`; absent: `published` from API version 2025-02-19 on, `raw` before),
 *   with `resultSourceMap` beside the result when the request asks for one (the client does
 *   when stega is on), computed by lib/content/source-map.ts as the Lake would map it;
 * - `POST /v{apiVersion}/data/mutate/{dataset}`: create, createOrReplace,
 *   createIfNotExists and delete, applied as one transaction; answers
 *   `{ transactionId, results: [{ id, operation }] }` (plus `document` with
 *   `?returnDocuments=true`);
 * - `POST /v{apiVersion}/assets/images/{dataset}`: stores an uploaded SVG or PNG
 *   as a `sanity.imageAsset` document `image-<sha1>-<w>x<h>-<ext>` and answers
 *   `{ document }`; uploading the same bytes again answers the existing asset, as
 *   Sanity does.
 * Every request is recorded (`requests` as "METHOD /url" lines, `calls` in detail).
 */
import { createHash, randomUUID } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { DocumentId, getPublishedId, getVersionNameFromId, isDraftId, isVersionId } from '@sanity/id-utils'
import { evaluate, parse } from 'groq-js'
import { localSourceMap } from '../../../lib/content/source-map.ts'
import type { ContentLakeSource } from '../../../lib/content/source.ts'
import { imageSize } from './imageSize.ts'

type Doc = { _id: string; _type: string; [field: string]: unknown }

/** One recorded request: `body` is parsed JSON for data endpoints, `{ bytes, sha1 }` for uploads. */
export type StandInCall = {
  method: string
  path: string
  search: Record<string, string>
  authorization?: string
  contentType?: string
  body?: unknown
}

export type StandInOptions = {
  /** When set, writes need `Authorization: Bearer <token>`; any other bearer token is refused (401). */
  token?: string
  /** The `_id` given to an uploaded image (default Sanity's `image-<sha1>-<w>x<h>-<ext>`). */
  assetId?: (asset: { sha1: string; width: number; height: number; extension: string }) => string
}

export type StandIn = {
  url: string
  requests: string[]
  calls: StandInCall[]
  /** The stored documents now (copies), system fields included. */
  documents: () => Doc[]
  close: () => Promise<void>
}

class HttpError extends Error {
  status: number
  body: unknown
  constructor(status: number, body: unknown) {
    super(JSON.stringify(body))
    this.status = status
    this.body = body
  }
}

const mutationError = (description: string) =>
  new HttpError(409, { error: { description, type: 'mutationError' } })

function paramsFrom(search: URLSearchParams): Record<string, unknown> {
  const params: Record<string, unknown> = {}
  for (const [key, value] of search) if (key.startsWith('$')) params[key.slice(1)] = JSON.parse(value)
  return params
}

async function readBody(request: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/**
 * The stored documents as the Content Lake shows them through `perspective` (the query
 * string's value), written from Sanity's documentation apart from lib/content's own, so
 * the tests compare two readings of it: a stack's layers, first wins, over `published`;
 * one document per published id, a draft's or version's own id kept as `_originalId`.
 */
function throughPerspective(docs: Doc[], perspective: string): Doc[] {
  if (perspective === 'raw') return docs
  const stack = perspective === 'published' ? [] : perspective.split(',')
  const layers = [...stack.map((layer) => (layer === 'previewDrafts' ? 'drafts' : layer)), 'published']
  const chosen = new Map<string, Doc>()
  const rankOf = (id: DocumentId) =>
    layers.indexOf(isDraftId(id) ? 'drafts' : isVersionId(id) ? getVersionNameFromId(id) : 'published')
  for (const doc of docs) {
    const id = DocumentId(doc._id)
    if (rankOf(id) < 0) continue
    const base = getPublishedId(id)
    const current = chosen.get(base)
    if (!current || rankOf(id) < rankOf(DocumentId(current._id))) chosen.set(base, doc)
  }
  return [...chosen].map(([base, doc]) =>
    doc._id === base ? doc : { ...doc, _id: base, _originalId: doc._id },
  )
}

const defaultAssetId: NonNullable<StandInOptions['assetId']> = ({ sha1, width, height, extension }) =>
  `image-${sha1}-${width}x${height}-${extension}`

/**
 * Starts the stand-in on a free loopback port.
 * @param documents the dataset to start from (copied; shapes `{ _id, _type, ... }`)
 * @param options token to require for writes, asset id scheme
 * @returns its base URL (for `apiHost`), the request log, a view of the stored documents, `close`
 */
export async function startSanityStandIn(
  documents: object[],
  options: StandInOptions = {},
): Promise<StandIn> {
  const store = new Map<string, Doc>()
  for (const doc of documents as Doc[]) store.set(doc._id, structuredClone(doc))
  const requests: string[] = []
  const calls: StandInCall[] = []
  const assetId = options.assetId ?? defaultAssetId
  let revision = 0
  const stamp = (doc: Doc, previous?: Doc): Doc => {
    const now = new Date().toISOString()
    return { ...doc, _rev: `rev${++revision}`, _createdAt: previous?._createdAt ?? now, _updatedAt: now }
  }

  const checkAuth = (authorization: string | undefined, write: boolean) => {
    if (!options.token) return
    const unauthorized = new HttpError(401, {
      error: 'Unauthorized',
      message: 'Session not found',
      statusCode: 401,
    })
    if (authorization === undefined && !write) return
    if (authorization !== `Bearer ${options.token}`) throw unauthorized
  }

  const query = async (url: URL, body: Buffer, method: string, apiVersion: string) => {
    let text = url.searchParams.get('query') ?? ''
    let params = paramsFrom(url.searchParams)
    if (method === 'POST') {
      const parsed = JSON.parse(body.toString('utf8'))
      text = parsed.query
      params = parsed.params ?? {}
    }
    const perspective =
      url.searchParams.get('perspective') ?? (apiVersion >= '2025-02-19' ? 'published' : 'raw')
    try {
      const dataset = throughPerspective([...store.values()], perspective)
      const result = await (await evaluate(parse(text, { params }), { dataset, params })).get()
      if (!url.searchParams.has('resultSourceMap')) return { query: text, result, ms: 1 }
      const resultSourceMap = localSourceMap(result, new Map(dataset.map((doc) => [doc._id, doc])))
      return { query: text, result, resultSourceMap, ms: 1 }
    } catch (error) {
      throw new HttpError(400, { error: { description: (error as Error).message, type: 'queryParseError' } })
    }
  }

  const mutate = (url: URL, body: { mutations?: Record<string, Doc | { id: string }>[] }) => {
    const next = new Map(store)
    const results = (body.mutations ?? []).map((mutation) => {
      const [kind, value] = Object.entries(mutation)[0] ?? []
      if (kind === 'delete') {
        const id = (value as { id: string }).id
        return { id, operation: next.delete(id) ? 'delete' : 'none' }
      }
      if (!['create', 'createOrReplace', 'createIfNotExists'].includes(kind ?? '')) {
        throw new HttpError(400, { error: { description: `stand-in: unsupported mutation ${kind}` } })
      }
      const doc = value as Doc
      if (!doc?._id || !doc._type) throw mutationError(`${kind}: a document needs _id and _type`)
      const previous = next.get(doc._id)
      if (kind === 'create' && previous) throw mutationError(`Document by ID "${doc._id}" already exists`)
      if (kind === 'createIfNotExists' && previous) return { id: doc._id, operation: 'none' }
      const stored = stamp(doc, previous)
      next.set(doc._id, stored)
      return { id: doc._id, operation: previous ? 'update' : 'create', document: stored }
    })
    const dryRun = url.searchParams.get('dryRun') === 'true'
    if (!dryRun) {
      store.clear()
      for (const [id, doc] of next) store.set(id, doc)
    }
    const withDocuments = url.searchParams.get('returnDocuments') === 'true'
    return {
      transactionId: randomUUID(),
      results: results.map(({ document, ...result }) => (withDocuments ? { ...result, document } : result)),
    }
  }

  const uploadImage = (url: URL, body: Buffer, projectId: string, dataset: string) => {
    const sha1 = createHash('sha1').update(body).digest('hex')
    const existing = [...store.values()].find(
      (doc) => doc._type === 'sanity.imageAsset' && doc.sha1hash === sha1,
    )
    if (existing) return { document: existing }
    const size = imageSize(body)
    if (!size) throw new HttpError(415, { error: { description: 'stand-in: only SVG and PNG images' } })
    const { width, height, extension, mimeType } = size
    const file = `${sha1}-${width}x${height}.${extension}`
    const document = stamp({
      _id: assetId({ sha1, width, height, extension }),
      _type: 'sanity.imageAsset',
      assetId: sha1,
      sha1hash: sha1,
      extension,
      mimeType,
      originalFilename: url.searchParams.get('filename') ?? undefined,
      size: body.length,
      path: `images/${projectId}/${dataset}/${file}`,
      url: `https://cdn.sanity.io/images/${projectId}/${dataset}/${file}`,
      metadata: {
        _type: 'sanity.imageMetadata',
        dimensions: { _type: 'sanity.imageDimensions', width, height, aspectRatio: width / height },
      },
    })
    store.set(document._id, document)
    return { document }
  }

  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost')
    const method = request.method ?? 'GET'
    const authorization = request.headers.authorization
    requests.push(`${method} ${request.url}`)
    const call: StandInCall = {
      method,
      path: url.pathname,
      search: Object.fromEntries(url.searchParams),
      authorization,
      contentType: request.headers['content-type'],
    }
    calls.push(call)
    const send = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    try {
      const body = await readBody(request)
      const route = /^\/v([\w-]+)\/(data\/query|data\/mutate|assets\/images)\/([\w-]+)$/.exec(url.pathname)
      const apiVersion = route?.[1] ?? ''
      const endpoint = route?.[2]
      const dataset = route?.[3] ?? ''
      if (endpoint === 'data/query' && (method === 'GET' || method === 'POST')) {
        if (method === 'POST') call.body = JSON.parse(body.toString('utf8'))
        checkAuth(authorization, false)
        send(200, await query(url, body, method, apiVersion))
      } else if (endpoint === 'data/mutate' && method === 'POST') {
        call.body = JSON.parse(body.toString('utf8'))
        checkAuth(authorization, true)
        send(200, mutate(url, call.body as Parameters<typeof mutate>[1]))
      } else if (endpoint === 'assets/images' && method === 'POST') {
        call.body = { bytes: body.length, sha1: createHash('sha1').update(body).digest('hex') }
        checkAuth(authorization, true)
        const projectId = String(request.headers['x-sanity-project-id'] ?? 'standin')
        send(200, uploadImage(url, body, projectId, dataset))
      } else {
        send(404, { error: 'not found' })
      }
    } catch (error) {
      if (error instanceof HttpError) send(error.status, error.body)
      else send(500, { error: { description: (error as Error).message } })
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    calls,
    documents: () => [...store.values()].map((doc) => structuredClone(doc)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/**
 * The content source that reads the stand-in through Sanity's real client, as the preview
 * reads a project: a read token, the site's API version, and `more` (a perspective, stega).
 */
export function standInSource(standIn: StandIn, more: Partial<ContentLakeSource> = {}): ContentLakeSource {
  return {
    kind: 'sanity',
    projectId: 'standin',
    dataset: 'production',
    apiVersion: '2025-02-19',
    token: 'read-token',
    apiHost: standIn.url,
    ...more,
  }
}
