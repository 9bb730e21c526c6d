/** Plans and applies a seed on a Sanity dataset: writes only the seed's missing or changed documents, deletes nothing. */
import type { SanityClient } from '@sanity/client'
import type { StoredDocument } from '../../lib/content/source.ts'
import { documentAction, rewriteAssetRefs, withoutSystemFields, type DocumentAction } from './documents.ts'
import type { Seed, SeedImage } from './load.ts'

/** One image: `exists` with the project's asset `_id`, or `upload` (expected id: the seed's). */
export type ImagePlan = { image: SeedImage; action: 'upload' | 'exists'; assetId: string }

export type DocumentPlan = { id: string; type: string; action: DocumentAction }

export type SeedPlan = {
  images: ImagePlan[]
  documents: DocumentPlan[]
  existing: ReadonlyMap<string, StoredDocument>
}

/** What a seed run did: filenames uploaded, `_id`s written in order. */
export type SeedResult = {
  uploaded: string[]
  written: string[]
  transactions: number
}

export const MAX_MUTATIONS_PER_TRANSACTION = 50
/** Keeps lookup GET URLs short. */
const LOOKUP_CHUNK = 100

const chunks = <Item>(items: Item[], size: number): Item[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) =>
    items.slice(index * size, (index + 1) * size),
  )

function desiredDocuments(seed: Seed, assetIds: ReadonlyMap<string, string>): StoredDocument[] {
  return seed.documents.map((doc) => withoutSystemFields(rewriteAssetRefs(doc, assetIds)))
}

const assetIdMap = (images: ImagePlan[]) => new Map(images.map((plan) => [plan.image.localId, plan.assetId]))

/** What seeding would change, from a client with raw read access; writes nothing, throws the client's error. */
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
