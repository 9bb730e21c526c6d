/**
 * The build's content step: one snapshot of the published content, validated, and the
 * images it uses copied into public/media/. Every later step of the build (Next's render,
 * the postbuild) reads that snapshot and nothing else (CONTENT_SNAPSHOT, see
 * `sourceFromEnv`), so a publish that lands while a build runs cannot mix two revisions
 * into one site, and a build from the Content Lake asks it for its content once.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { validateAllContent } from '../../lib/content/content-check.ts'
import { rulesReadChange, type RuleRead } from '../../lib/content/schema-rules.ts'
import { getMediaAssets } from '../../lib/content/index.ts'
import { syncMedia } from '../../lib/content/media-sync.ts'
import { readAllDocuments, type ContentSource, type StoredDocument } from '../../lib/content/source.ts'
import { changedDocuments, type DependencyMap } from './render-plan.ts'

/** What the content step did, for the build's log and the bench. */
export type ContentStepResult = {
  /** The snapshot's documents (assets included). */
  documents: StoredDocument[]
  /** How many documents the schema's rules ran on: all, or the changed ones. */
  validated: number | 'all'
  /** The queries each document's rules ran (the validated ones now, the live build's for the rest). */
  ruleReads: Record<string, RuleRead[]>
  /** Images copied into public/media/. */
  images: number
  /** Reading and writing the snapshot, and validating it (ms). */
  checkMs: number
  /** Copying (and resizing) the images (ms). */
  mediaMs: number
}

/**
 * Which documents the schema's rules must run on, given the live build's snapshot (its
 * documents' hashes) and the queries its rules ran (`ruleReads`): the changed documents,
 * and those whose rules read something the change gives another result
 * (`rulesReadChange`: a case study's new address that another case study's address or
 * link now meets). All when a document was removed (another may reference it: a
 * reference's target is not a query) or there is no live map.
 * @returns the `_id`s to validate, or null for all
 */
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
 * Takes the snapshot, validates it and syncs its images.
 * @param source where content comes from (the environment's: the dataset file or the
 *   Content Lake, published documents)
 * @param snapshotFile where to write the snapshot (NDJSON, the dataset file's format)
 * @param publicDir the app's public/ folder (images go to its media/ folder)
 * @param previous the live build's dependency map, when the code is the same: only the
 *   documents that changed since are validated (`changedOnly`)
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
  // Validating part of the snapshot ran part of the rules: the live build's reads hold for
  // the rest (nothing was removed, or everything would have been validated).
  const ruleReads = only ? mergeRuleReads(previous!.ruleReads, only, findings.ruleReads) : findings.ruleReads
  const checked = performance.now()
  // The snapshot names the images; the source holds their files (or Sanity's CDN does).
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
