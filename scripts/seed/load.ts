/** The seed's settings from the environment (`.env.example`), its Sanity client, and the seed read from disk. */
import { createClient, type SanityClient } from '@sanity/client'
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import {
  DEFAULT_API_VERSION,
  DEFAULT_LOCAL_DATASET,
  parseNdjson,
  referencedIds,
  type StoredDocument,
} from '../../lib/content/source.ts'

export type SeedConfig = {
  projectId: string
  dataset: string
  apiVersion: string
  token: string
  /** Only for tests: a stand-in of Sanity's API, e.g. http://127.0.0.1:4010 */
  apiHost?: string
  file: string
}

/** The settings; throws naming the first of SANITY_PROJECT_ID and SANITY_API_WRITE_TOKEN that is missing. */
export function seedConfigFromEnv(env: Record<string, string | undefined> = process.env): SeedConfig {
  const get = (name: string) => env[name]?.trim() || undefined
  const required = (name: string, what: string): string => {
    const value = get(name)
    if (!value) throw new Error(`${name} is not set: ${what} (see .env.example)`)
    return value
  }
  return {
    projectId: required('SANITY_PROJECT_ID', 'the id of the Sanity project to seed'),
    token: required('SANITY_API_WRITE_TOKEN', 'a Sanity API token with write access (Editor)'),
    dataset: get('SANITY_DATASET') ?? 'production',
    apiVersion: get('SANITY_API_VERSION') ?? DEFAULT_API_VERSION,
    apiHost: get('SANITY_API_HOST'),
    file: path.resolve(get('LOCAL_DATASET') ?? DEFAULT_LOCAL_DATASET),
  }
}

/** A client that reads documents exactly by `_id` (raw perspective, no CDN) and writes with the token. */
export function createSeedClient({
  projectId,
  dataset,
  apiVersion,
  token,
  apiHost,
}: SeedConfig): SanityClient {
  // A stand-in host has no project subdomains.
  const hosts = { apiHost, useProjectHostname: !apiHost }
  return createClient({ projectId, dataset, apiVersion, token, ...hosts, useCdn: false, perspective: 'raw' })
}

/** One image to upload; `localId` is the asset `_id` the seed's documents reference, `sha1` how Sanity knows it. */
export type SeedImage = { localId: string; filename: string; mimeType?: string; data: Buffer; sha1: string }

export type Seed = { file: string; documents: StoredDocument[]; images: SeedImage[] }

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
    const missing = [...referencedIds([doc])].find((ref) => ref.startsWith('image-') && !assetIds.has(ref))
    if (missing) throw new Error(`${file}: document "${doc._id}" references missing asset "${missing}"`)
  }
  return { file, documents, images }
}
