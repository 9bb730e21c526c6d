/**
 * Turns the local dataset into what `sanity dataset import` uploads to a real
 * project. The local file keeps `sanity.imageAsset` documents (so `asset->url`
 * resolves offline), but the importer only accepts asset documents whose files
 * already live in the target project. So asset documents are dropped and each
 * image reference becomes the importer's `_sanityAsset: "image@file://..."`
 * instruction: it uploads the file and writes the reference itself.
 */
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { StoredDocument } from './source.ts'

type Json = unknown

/**
 * @param documents the local dataset (asset documents plus content)
 * @param imagesDir absolute folder holding each asset's `originalFilename`
 * @returns content documents ready for `sanity dataset import`
 * @throws Error naming the document when an image references an asset the dataset lacks
 */
export function toImportDocuments(documents: StoredDocument[], imagesDir: string): StoredDocument[] {
  const assets = new Map(
    documents
      .filter((doc) => doc._type === 'sanity.imageAsset')
      .map((doc) => [doc._id, pathToFileURL(path.join(imagesDir, String(doc.originalFilename))).href]),
  )
  const rewrite = (value: Json, documentId: string): Json => {
    if (Array.isArray(value)) return value.map((item) => rewrite(item, documentId))
    if (!value || typeof value !== 'object') return value
    const object = value as Record<string, Json>
    const asset = object.asset as { _ref?: string } | undefined
    if (object._type === 'image' && asset?._ref) {
      const file = assets.get(asset._ref)
      if (!file)
        throw new Error(`Invalid content: document "${documentId}" references missing asset "${asset._ref}"`)
      const upload: Record<string, Json> = { ...object, _sanityAsset: `image@${file}` }
      delete upload.asset
      return upload
    }
    return Object.fromEntries(Object.entries(object).map(([key, item]) => [key, rewrite(item, documentId)]))
  }
  return documents
    .filter((doc) => doc._type !== 'sanity.imageAsset')
    .map((doc) => rewrite(doc, doc._id) as StoredDocument)
}
