/** Test helpers: the seed dataset, and edited copies of it as temporary NDJSON files. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseNdjson, type StoredDocument } from '@/lib/content/source'

export const SEED_FILE = path.resolve('studio/seed/dataset.ndjson')

/** The seed's documents, parsed afresh (safe to edit). */
export function seedDocuments(): StoredDocument[] {
  return parseNdjson(readFileSync(SEED_FILE, 'utf8'), SEED_FILE)
}

/**
 * Writes `documents` as an NDJSON dataset in a temporary folder whose images/
 * links to the seed's images.
 * @returns the source to read it with
 */
export function writeDataset(documents: StoredDocument[]): { kind: 'local'; file: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dataset-'))
  const file = path.join(dir, 'dataset.ndjson')
  writeFileSync(file, documents.map((doc) => JSON.stringify(doc)).join('\n') + '\n')
  return { kind: 'local', file }
}

/** The seed with one document changed by `edit` (found by `_id`). */
export function seedWith(id: string, edit: (doc: StoredDocument) => StoredDocument | null) {
  const docs = seedDocuments().flatMap((doc) => {
    if (doc._id !== id) return [doc]
    const edited = edit(structuredClone(doc))
    return edited ? [edited] : []
  })
  return writeDataset(docs)
}
