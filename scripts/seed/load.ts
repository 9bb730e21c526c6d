/** Reads a seed from disk: an NDJSON dataset and the image files its asset documents name. */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { parseNdjson, type StoredDocument } from '../../lib/content/source.ts'

/** One image to upload; `localId` is the asset `_id` the seed's documents reference. */
export type SeedImage = {
  localId: string
  filename: string
  mimeType?: string
  data: Buffer
  /** Hex; how Sanity recognises an asset it already has. */
  sha1: string
}

export type Seed = { file: string; documents: StoredDocument[]; images: SeedImage[] }

/** Every `_ref` anywhere inside `value`. */
export function referencesIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(referencesIn)
  if (!value || typeof value !== 'object') return []
  const object = value as Record<string, unknown>
  const own = typeof object._ref === 'string' ? [object._ref] : []
  return [...own, ...Object.values(object).flatMap(referencesIn)]
}

/**
 * The content documents of an NDJSON dataset and the images in `imagesDir` they use.
 * @throws Error naming the document when an `_id` repeats, an asset is no image or has no
 *   file, or a document references an image the seed lacks; or when the file is unreadable
 */
export async function loadSeed(
  file: string,
  imagesDir = path.join(path.dirname(file), 'images'),
): Promise<Seed> {
  const all = parseNdjson(await readFile(file, 'utf8'), file)
  const seen = new Set<string>()
  for (const doc of all) {
    if (seen.has(doc._id)) throw new Error(`${file}: document "${doc._id}" appears twice`)
    seen.add(doc._id)
  }
  const isAsset = (doc: StoredDocument) => /^sanity\.\w+Asset$/.test(doc._type)
  const images = await Promise.all(
    all.filter(isAsset).map(async (asset): Promise<SeedImage> => {
      if (asset._type !== 'sanity.imageAsset' || typeof asset.originalFilename !== 'string') {
        throw new Error(`${file}: asset "${asset._id}" must be a sanity.imageAsset with an originalFilename`)
      }
      const filename = asset.originalFilename
      const data = await readFile(path.join(imagesDir, filename)).catch(() => {
        throw new Error(`${file}: image "${filename}" of asset "${asset._id}" is not in ${imagesDir}`)
      })
      const sha1 = createHash('sha1').update(data).digest('hex')
      const mimeType = typeof asset.mimeType === 'string' ? asset.mimeType : undefined
      return { localId: asset._id, filename, mimeType, data, sha1 }
    }),
  )
  const assetIds = new Set(images.map((image) => image.localId))
  const documents = all.filter((doc) => !isAsset(doc))
  for (const doc of documents) {
    const missing = referencesIn(doc).find((ref) => ref.startsWith('image-') && !assetIds.has(ref))
    if (missing) throw new Error(`${file}: document "${doc._id}" references missing asset "${missing}"`)
  }
  return { file, documents, images }
}
