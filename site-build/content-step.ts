/** The build's content step: one validated snapshot every later step reads, its images copied into public/media/. */
import { mkdir, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { validateAllContent } from '../lib/content/content-check.ts'
import { rulesReadChange } from '../lib/content/schema-rules.ts'
import { getMediaAssets } from '../lib/content/index.ts'
import { syncMedia } from '../lib/content/media-sync.ts'
import { readAllDocuments, type ContentSource, type StoredDocument } from '../lib/content/source.ts'
import { changedDocuments, type DependencyMap } from '../lib/content/render-plan.ts'

/** The `_id`s to validate: changed ones and their rules' readers; null (all) without a map or after a removal. */
export function changedOnly(
  previous: Pick<DependencyMap, 'documents' | 'ruleReads'> | null,
  documents: StoredDocument[],
): Set<string> | null {
  if (!previous) return null
  const changed = changedDocuments(previous, documents)
  const present = new Set(documents.map((doc) => doc._id))
  if ([...changed.ids].some((id) => !present.has(id))) return null
  return new Set([...changed.ids, ...rulesReadChange(previous.ruleReads, changed, documents)])
}

/**
 * The build's content step: writes the snapshot (NDJSON), validates it (only `changedOnly` with a
 * live map) and syncs its images into `publicDir`/media/.
 * @throws ContentError naming the document and field when the content is invalid (nothing
 *   is copied then); Error when the source cannot be read
 */
export async function contentStep(
  source: ContentSource,
  snapshotFile: string,
  publicDir: string,
  previous: Pick<DependencyMap, 'documents' | 'ruleReads'> | null = null,
) {
  const started = performance.now()
  const documents = await readAllDocuments(source)
  await mkdir(path.dirname(snapshotFile), { recursive: true })
  // Written whole, then renamed: a reader never sees half a snapshot.
  const partial = `${snapshotFile}.${process.pid}.partial`
  await writeFile(partial, documents.map((doc) => JSON.stringify(doc)).join('\n') + '\n')
  await rename(partial, snapshotFile)
  const snapshot: ContentSource = { kind: 'local', file: snapshotFile, perspective: 'published' }
  const only = changedOnly(previous, documents)
  const findings = await validateAllContent(snapshot, only ?? undefined)
  // The live build's rule reads, with those of the documents validated now in their place.
  const ruleReads = only
    ? Object.fromEntries(
        [
          ...Object.entries(previous!.ruleReads).filter(([id]) => !only.has(id)),
          ...Object.entries(findings.ruleReads),
        ].sort(([a], [b]) => a.localeCompare(b)),
      )
    : findings.ruleReads
  const checked = performance.now()
  const images = await syncMedia(await getMediaAssets(snapshot), source, publicDir)
  return {
    documents,
    /** How many documents the schema's rules ran on: all, or the changed ones. */
    validated: only ? only.size : ('all' as const),
    ruleReads,
    images,
    checkMs: Math.round(checked - started),
    mediaMs: Math.round(performance.now() - checked),
  }
}
