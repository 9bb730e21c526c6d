/**
 * @jest-environment node
 */
/** The seed library's parts, in process: reading the seed, comparing documents, config, batching. */
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createSeedClient, loadSeed, seedConfigFromEnv } from '@/scripts/seed/load'
import { applySeed, documentAction, planSeed, rewriteAssetRefs } from '@/scripts/seed/sync'
import type { StoredDocument } from '@/lib/content/source'
import { SEED_FILE, seedDocuments } from '../../helpers/dataset'
import { startSanityStandIn } from '../../helpers/sanityStandIn'

/** Writes `documents` as a seed in a temp folder; `images` links to the real seed images unless false. */
function tempSeed(documents: StoredDocument[], images = true): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'seed-lib-'))
  if (images) symlinkSync(path.resolve('studio/seed/images'), path.join(dir, 'images'))
  const file = path.join(dir, 'dataset.ndjson')
  writeFileSync(file, documents.map((doc) => JSON.stringify(doc)).join('\n') + '\n')
  return file
}

describe('loadSeed', () => {
  test('splits the seed into content documents and images whose sha1 matches the asset ids', async () => {
    const seed = await loadSeed(SEED_FILE)
    expect(seed.images).toHaveLength(10)
    expect(seed.documents.some((doc) => doc._type === 'sanity.imageAsset')).toBe(false)
    expect(seed.documents.length + seed.images.length).toBe(seedDocuments().length)
    for (const image of seed.images) expect(image.localId).toContain(image.sha1)
    expect(seed.images.find((image) => image.filename === 'hero-preview.svg')?.mimeType).toBe('image/svg+xml')
  })

  test('names the asset whose image file is missing', async () => {
    const file = tempSeed(seedDocuments(), false)
    await expect(loadSeed(file)).rejects.toThrow(/image "[\w-]+\.svg" of asset "image-[0-9a-f]{40}-/)
  })

  test('names the document whose image points at an asset the seed lacks', async () => {
    const broken = seedDocuments().filter((doc) => doc.originalFilename !== 'hero-preview.svg')
    await expect(loadSeed(tempSeed(broken))).rejects.toThrow(
      /document "siteSettings" references missing asset "image-f271b230/,
    )
  })

  test('refuses a repeated _id', async () => {
    const docs = seedDocuments()
    await expect(loadSeed(tempSeed([...docs, docs[20]!]))).rejects.toThrow(/appears twice/)
  })
})

describe('documentAction and rewriteAssetRefs', () => {
  const doc: StoredDocument = {
    _id: 'a',
    _type: 'thing',
    title: 'T',
    image: { _type: 'image', asset: { _type: 'reference', _ref: 'image-local' } },
  }

  test('create when nothing is stored; unchanged despite system fields and key order', () => {
    expect(documentAction(doc, undefined)).toBe('create')
    const stored = { image: doc.image, title: 'T', _type: 'thing', _id: 'a', _rev: 'r1', _updatedAt: 'x' }
    expect(documentAction(doc, stored)).toBe('unchanged')
  })

  test('update when any field differs, however deep', () => {
    const image = { _type: 'image', asset: { _type: 'reference', _ref: 'image-other' } }
    expect(documentAction(doc, { ...doc, image })).toBe('update')
    expect(documentAction(doc, { ...doc, extra: 1 })).toBe('update')
  })

  test('rewrites references it knows, leaves others and the input alone', () => {
    const rewritten = rewriteAssetRefs(doc, new Map([['image-local', 'image-remote']]))
    expect(rewritten.image).toEqual({ _type: 'image', asset: { _type: 'reference', _ref: 'image-remote' } })
    expect(doc.image).toEqual({ _type: 'image', asset: { _type: 'reference', _ref: 'image-local' } })
    expect(rewriteAssetRefs(doc, new Map())).toEqual(doc)
  })
})

describe('seedConfigFromEnv', () => {
  test('defaults', () => {
    expect(seedConfigFromEnv({ SANITY_PROJECT_ID: 'p1', SANITY_API_WRITE_TOKEN: 'tok' })).toEqual({
      projectId: 'p1',
      token: 'tok',
      dataset: 'production',
      apiVersion: '2025-02-19',
      apiHost: undefined,
      file: SEED_FILE,
    })
  })

  test('names the missing variable', () => {
    expect(() => seedConfigFromEnv({ SANITY_API_WRITE_TOKEN: 'tok' })).toThrow(
      'SANITY_PROJECT_ID is not set: the id of the Sanity project to seed (see .env.example)',
    )
    expect(() => seedConfigFromEnv({ SANITY_PROJECT_ID: 'p1', SANITY_API_WRITE_TOKEN: ' ' })).toThrow(
      /^SANITY_API_WRITE_TOKEN is not set/,
    )
  })
})

test('applySeed batches createOrReplace mutations and uploads with the image content type', async () => {
  const api = await startSanityStandIn([], { token: 'tok' })
  try {
    const client = createSeedClient({
      ...seedConfigFromEnv({ SANITY_PROJECT_ID: 'p1', SANITY_API_WRITE_TOKEN: 'tok' }),
      apiHost: api.url,
    })
    const seed = await loadSeed(SEED_FILE)
    const result = await applySeed(client, seed, await planSeed(client, seed), 10)
    const mutateSizes = api.calls
      .filter((call) => call.path.endsWith('/data/mutate/production'))
      .map((call) => (call.body as { mutations: unknown[] }).mutations.length)
    expect(mutateSizes).toEqual([10, 10, 10, 4])
    expect(result).toEqual({
      uploaded: seed.images.map((image) => image.filename),
      written: seed.documents.map((doc) => doc._id),
      transactions: 4,
    })
    const uploads = api.calls.filter((call) => call.path.includes('/assets/images/'))
    // Nine SVG drawings and one PNG screenshot (site-cafe.png).
    expect(uploads.map((call) => call.contentType)).toEqual([...Array(9).fill('image/svg+xml'), 'image/png'])
  } finally {
    await api.close()
  }
})
