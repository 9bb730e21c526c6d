/** The build's content step: one validated snapshot every later step reads, its images copied into public/media/. */
import { mkdir, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { validateAllContent } from '../lib/content/content-check.ts'
import { rulesReadChange, type RuleRead } from '../lib/content/schema-rules.ts'
import { getMediaAssets } from '../lib/content/index.ts'
import { syncMedia } from '../lib/content/media-sync.ts'
import { readAllDocuments, type ContentSource, type StoredDocument } from '../lib/content/source.ts'
import { changedDocuments, type DependencyMap } from '../lib/content/render-plan.ts'

/** What the content step did, for the build's log and the bench. */
export type ContentStepResult = {
  documents: StoredDocument[]
  /** How many documents the schema's rules ran on: all, or the changed ones. */
  validated: number | 'all'
  ruleReads: Record<string, RuleRead[]>
  images: number
  checkMs: number
  mediaMs: number
}

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
 * Writes the snapshot (NDJSON), validates it (only `changedOnly` with a live map) and syncs
 * its images into `publicDir`/media/.
 * @throws ContentError naming the document and field when the content is invalid (nothing
 *   is copied then); Error when the source cannot be read
 */
export async function contentStep(
  source: ContentSource,
  snapshotFile: string,
  publicDir: string,
  previous: Pick<DependencyMap, 'documents' | 'ruleReads'> | null = null,
): Promise<ContentStepResult> {
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
  const ruleReads = only ? mergeRuleReads(previous!.ruleReads, only, findings.ruleReads) : findings.ruleReads
  const checked = performance.now()
  const images = await syncMedia(await getMediaAssets(snapshot), source, publicDir)
  return {
    documents,
    validated: only ? only.size : 'all',
    ruleReads,
    images,
    checkMs: Math.round(checked - started),
    mediaMs: Math.round(performance.now() - checked),
  }
}

/** The live build's rule reads, with those of the documents validated now in their place. */
function mergeRuleReads(
  live: Record<string, RuleRead[]>,
  validated: ReadonlySet<string>,
  now: Record<string, RuleRead[]>,
): Record<string, RuleRead[]> {
  const merged = Object.entries(live).filter(([id]) => !validated.has(id))
  return Object.fromEntries([...merged, ...Object.entries(now)].sort(([a], [b]) => a.localeCompare(b)))
}
