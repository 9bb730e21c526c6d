/** Plans and applies a seed on a Sanity dataset (only its missing or changed documents, nothing deleted), and the lines it prints. */
import type { SanityClient } from '@sanity/client'
import { isDeepStrictEqual } from 'node:util'
import type { StoredDocument } from '../../lib/content/source.ts'
import type { Seed, SeedImage } from './load.ts'

/** Fields the Content Lake sets itself; ignored when comparing, never sent. */
const SYSTEM_FIELDS = ['_rev', '_createdAt', '_updatedAt'] as const

export type DocumentAction = 'create' | 'update' | 'unchanged'

function withoutSystemFields(doc: StoredDocument): StoredDocument {
  const copy: Record<string, unknown> = { ...doc }
  for (const field of SYSTEM_FIELDS) delete copy[field]
  return copy as StoredDocument
}

/** A deep copy of `value` with every `_ref` in `assetIds` (seed asset `_id` -> project's) replaced. */
export function rewriteAssetRefs<Value>(value: Value, assetIds: ReadonlyMap<string, string>): Value {
  if (Array.isArray(value)) return value.map((item) => rewriteAssetRefs(item, assetIds)) as Value
  if (!value || typeof value !== 'object') return value
  const copy = Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, rewriteAssetRefs(item, assetIds)]),
  )
  if (typeof copy._ref === 'string' && assetIds.has(copy._ref)) copy._ref = assetIds.get(copy._ref)
  return copy as Value
}

/** create (none stored), unchanged (equal but for system fields and key order) or update. */
export function documentAction(
  desired: StoredDocument,
  existing: StoredDocument | undefined,
): DocumentAction {
  if (!existing) return 'create'
  const same = isDeepStrictEqual(withoutSystemFields(existing), withoutSystemFields(desired))
  return same ? 'unchanged' : 'update'
}

/** One image: `exists` with the project's asset `_id`, or `upload` (expected id: the seed's). */
export type ImagePlan = { image: SeedImage; action: 'upload' | 'exists'; assetId: string }

export type SeedPlan = {
  images: ImagePlan[]
  documents: { id: string; type: string; action: DocumentAction }[]
  existing: ReadonlyMap<string, StoredDocument>
}

/** What a seed run did: filenames uploaded, `_id`s written in order. */
export type SeedResult = { uploaded: string[]; written: string[]; transactions: number }

export const MAX_MUTATIONS_PER_TRANSACTION = 50
/** Keeps lookup GET URLs short. */
const LOOKUP_CHUNK = 100

const chunks = <Item>(items: Item[], size: number): Item[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) =>
    items.slice(index * size, (index + 1) * size),
  )

const desiredDocuments = (seed: Seed, assetIds: ReadonlyMap<string, string>): StoredDocument[] =>
  seed.documents.map((doc) => withoutSystemFields(rewriteAssetRefs(doc, assetIds)))

const assetIdMap = (images: ImagePlan[]) => new Map(images.map((plan) => [plan.image.localId, plan.assetId]))

/** Every result of `query` over `values` in chunks of LOOKUP_CHUNK, passed as `$<name>`. */
async function lookUp<Row>(client: SanityClient, query: string, name: string, values: string[]) {
  const rows: Row[] = []
  for (const chunk of chunks(values, LOOKUP_CHUNK))
    rows.push(...(await client.fetch<Row[]>(query, { [name]: chunk })))
  return rows
}

/** What seeding would change, from a client with raw read access; writes nothing, throws the client's error. */
export async function planSeed(client: SanityClient, seed: Seed): Promise<SeedPlan> {
  const assets = await lookUp<{ _id: string; sha1hash: string }>(
    client,
    '*[_type == "sanity.imageAsset" && sha1hash in $hashes]{_id, sha1hash}',
    'hashes',
    [...new Set(seed.images.map((image) => image.sha1))],
  )
  const bySha1 = new Map(assets.map((asset) => [asset.sha1hash, asset._id]))
  const images = seed.images.map((image): ImagePlan => {
    const assetId = bySha1.get(image.sha1)
    return assetId
      ? { image, action: 'exists', assetId }
      : { image, action: 'upload', assetId: image.localId }
  })
  const ids = seed.documents.map((doc) => doc._id)
  const stored = await lookUp<StoredDocument>(client, '*[_id in $ids]', 'ids', ids)
  const existing = new Map(stored.map((doc) => [doc._id, doc]))
  const documents = desiredDocuments(seed, assetIdMap(images)).map((doc) => ({
    id: doc._id,
    type: doc._type,
    action: documentAction(doc, existing.get(doc._id)),
  }))
  return { images, documents, existing }
}

/** Carries out `planSeed`'s plan: uploads, then createOrReplace in transactions; after an error, running again finishes. */
export async function applySeed(
  client: SanityClient,
  seed: Seed,
  plan: SeedPlan,
  batchSize = MAX_MUTATIONS_PER_TRANSACTION,
): Promise<SeedResult> {
  const assetIds = assetIdMap(plan.images)
  const uploaded: string[] = []
  for (const { image, action } of plan.images) {
    if (action !== 'upload') continue
    const asset = await client.assets.upload('image', image.data, {
      filename: image.filename,
      contentType: image.mimeType,
    })
    assetIds.set(image.localId, asset._id)
    uploaded.push(image.filename)
  }
  const changed = desiredDocuments(seed, assetIds).filter(
    (doc) => documentAction(doc, plan.existing.get(doc._id)) !== 'unchanged',
  )
  const written: string[] = []
  let transactions = 0
  for (const batch of chunks(changed, batchSize)) {
    await client.transaction(batch.map((doc) => ({ createOrReplace: doc }))).commit()
    written.push(...batch.map((doc) => doc._id))
    transactions += 1
  }
  return { uploaded, written, transactions }
}

/** One line per image and per document, with what seeding does to it. */
export function describePlan(plan: SeedPlan): string[] {
  const line = (action: string, what: string) => `  ${action.padEnd(9)} ${what}`
  return [
    ...plan.images.map(({ action, image, assetId }) =>
      line(action, `image ${image.filename}${action === 'exists' ? ` (${assetId})` : ''}`),
    ),
    ...plan.documents.map(({ action, id, type }) => line(action, `${type} ${id}`)),
  ]
}

const count = (items: { action: string }[], action: string) =>
  items.filter((item) => item.action === action).length

/** e.g. "10 images to upload, 0 already there; 34 documents to create, 0 to update, 0 unchanged" */
export function summarizePlan({ images, documents }: SeedPlan): string {
  return (
    `${count(images, 'upload')} images to upload, ${count(images, 'exists')} already there; ` +
    `${count(documents, 'create')} documents to create, ${count(documents, 'update')} to update, ` +
    `${count(documents, 'unchanged')} unchanged`
  )
}

/** Whether applying `plan` would upload or write nothing. */
export const isUpToDate = ({ images, documents }: SeedPlan): boolean =>
  count(images, 'exists') === images.length && count(documents, 'unchanged') === documents.length

/** e.g. "uploaded 10 images, wrote 34 documents in 1 transaction" */
export function summarizeResult(result: SeedResult): string {
  const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`
  return (
    `uploaded ${plural(result.uploaded.length, 'image')}, wrote ${plural(result.written.length, 'document')} ` +
    `in ${plural(result.transactions, 'transaction')}`
  )
}
