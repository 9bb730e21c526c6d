/**
 * Plans and applies a seed against a Sanity dataset through `@sanity/client`:
 * images go through the assets API (reused when an asset with the same sha1
 * exists), documents through `createOrReplace` transactions, and only the
 * documents that are missing or differ are written. Only the seed's own `_id`s
 * are ever written; nothing is deleted.
 */
import type { SanityClient } from '@sanity/client'
import type { StoredDocument } from '../../lib/content/source.ts'
import { documentAction, rewriteAssetRefs, withoutSystemFields, type DocumentAction } from './documents.ts'
import type { Seed, SeedImage } from './load.ts'

/** One image: `exists` with the project's asset `_id`, or `upload` (expected id: the seed's). */
export type ImagePlan = { image: SeedImage; action: 'upload' | 'exists'; assetId: string }

/** One content document and what seeding does to it. */
export type DocumentPlan = { id: string; type: string; action: DocumentAction }

/** What a seed run would do, and the stored state it was computed from. */
export type SeedPlan = {
  images: ImagePlan[]
  documents: DocumentPlan[]
  /** The stored copies of the seed's documents, by `_id` (absent ones are missing). */
  existing: ReadonlyMap<string, StoredDocument>
}

/** What a seed run did. */
export type SeedResult = {
  /** Filenames uploaded. */
  uploaded: string[]
  /** `_id`s written, in order. */
  written: string[]
  transactions: number
}

/** At most this many mutations go in one transaction. */
export const MAX_MUTATIONS_PER_TRANSACTION = 50
/** Ids per lookup query (keeps GET URLs short). */
const LOOKUP_CHUNK = 100

const chunks = <Item>(items: Item[], size: number): Item[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) =>
    items.slice(index * size, (index + 1) * size),
  )

/** The seed's documents as they should be stored, with image references mapped through `assetIds`. */
function desiredDocuments(seed: Seed, assetIds: ReadonlyMap<string, string>): StoredDocument[] {
  return seed.documents.map((doc) => withoutSystemFields(rewriteAssetRefs(doc, assetIds)))
}

const assetIdMap = (images: ImagePlan[]) => new Map(images.map((plan) => [plan.image.localId, plan.assetId]))

/**
 * Reads what the dataset holds and works out what seeding would change. Writes nothing.
 * @param client a configured client with read access to the dataset (`perspective: 'raw'`)
 * @param seed from `loadSeed`
 * @returns per image upload/exists, per document create/update/unchanged (assuming an
 *   uploaded image gets the seed's asset id, as Sanity normally gives), and the stored copies
 * @throws the client's error when a query fails (e.g. 401 for a bad token)
 */
export async function planSeed(client: SanityClient, seed: Seed): Promise<SeedPlan> {
  const assets: { _id: string; sha1hash: string }[] = []
  for (const hashes of chunks([...new Set(seed.images.map((image) => image.sha1))], LOOKUP_CHUNK)) {
    assets.push(
      ...(await client.fetch<{ _id: string; sha1hash: string }[]>(
        '*[_type == "sanity.imageAsset" && sha1hash in $hashes]{_id, sha1hash}',
        { hashes },
      )),
    )
  }
  const bySha1 = new Map(assets.map((asset) => [asset.sha1hash, asset._id]))
  const images = seed.images.map((image): ImagePlan => {
    const assetId = bySha1.get(image.sha1)
    return assetId
      ? { image, action: 'exists', assetId }
      : { image, action: 'upload', assetId: image.localId }
  })

  const existing = new Map<string, StoredDocument>()
  const ids = seed.documents.map((doc) => doc._id)
  for (const chunk of chunks(ids, LOOKUP_CHUNK)) {
    const stored = await client.fetch<StoredDocument[]>('*[_id in $ids]', { ids: chunk })
    for (const doc of stored) existing.set(doc._id, doc)
  }
  const documents = desiredDocuments(seed, assetIdMap(images)).map((doc) => ({
    id: doc._id,
    type: doc._type,
    action: documentAction(doc, existing.get(doc._id)),
  }))
  return { images, documents, existing }
}

/**
 * Carries out a plan: uploads the images marked `upload`, rewrites every image
 * reference to the asset `_id` the project gave, and writes (createOrReplace, in
 * transactions of at most `batchSize`) each document that is missing or differs
 * from its stored copy in `plan.existing`. Never deletes; writes only seed `_id`s.
 * @param client a configured client with write access (token)
 * @param seed from `loadSeed`
 * @param plan from `planSeed` on the same seed
 * @param batchSize mutations per transaction (default 50)
 * @returns the filenames uploaded, the `_id`s written and the number of transactions
 * @throws the client's error when an upload or a transaction fails (transactions
 *   committed before it stay committed; running again finishes the job)
 */
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

  const owned = new Set(seed.documents.map((doc) => doc._id))
  const changed = desiredDocuments(seed, assetIds).filter(
    (doc) => documentAction(doc, plan.existing.get(doc._id)) !== 'unchanged',
  )
  const written: string[] = []
  let transactions = 0
  for (const batch of chunks(changed, batchSize)) {
    for (const doc of batch) {
      if (!owned.has(doc._id)) throw new Error(`refusing to write "${doc._id}", which is not in the seed`)
    }
    await client.transaction(batch.map((doc) => ({ createOrReplace: doc }))).commit()
    written.push(...batch.map((doc) => doc._id))
    transactions += 1
  }
  return { uploaded, written, transactions }
}
