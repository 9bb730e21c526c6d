/**
 * The build's content step: one snapshot of the published content, validated, and the
 * images it uses copied into public/media/. Every later step of the build (Next's render,
 * the postbuild) reads that snapshot and nothing else (CONTENT_SNAPSHOT, see
 * `sourceFromEnv`), so a publish that lands while a build runs cannot mix two revisions
 * into one site, and a build from the Content Lake asks it for its content once.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { validateAllContent } from '../../lib/content/check.ts'
import { getMediaAssets } from '../../lib/content/index.ts'
import { syncMedia } from '../../lib/content/media.ts'
import { readAllDocuments, type ContentSource, type StoredDocument } from '../../lib/content/source.ts'
import { changedDocuments, type DependencyMap } from './render-plan.ts'

/** What the content step did, for the build's log and the bench. */
export type ContentStepResult = {
  /** The snapshot's documents (assets included). */
  documents: StoredDocument[]
  /** How many documents the schema's rules ran on: all, or the changed ones. */
  validated: number | 'all'
  /** The types the schema's rules read from other documents (null: any). */
  ruleTypes: (string | null)[]
  /** Images copied into public/media/. */
  images: number
  /** Reading and writing the snapshot, and validating it (ms). */
  checkMs: number
  /** Copying (and resizing) the images (ms). */
  mediaMs: number
}

/**
 * Which documents the schema's rules must run on, given the live build's snapshot (its
 * documents' hashes) and the types its rules read from other documents: only those that
 * changed, unless a change is of a type another document's rule reads (a case study's
 * address, which every other case study's uniqueness rule and every link in text reads),
 * a rule reads any type, or a document was removed (another may reference it); then all.
 * @returns the changed documents' `_id`s, or null for all
 */
export function changedOnly(
  previous: Pick<DependencyMap, 'documents' | 'ruleTypes'> | null,
  documents: StoredDocument[],
): Set<string> | null {
  if (!previous || previous.ruleTypes.includes(null)) return null
  const { ids, types } = changedDocuments(previous, documents)
  if ([...types].some((type) => previous.ruleTypes.includes(type))) return null
  // A removed document may be what another one references.
  const present = new Set(documents.map((doc) => doc._id))
  if ([...ids].some((id) => !present.has(id))) return null
  return ids
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
  previous: Pick<DependencyMap, 'documents' | 'ruleTypes'> | null = null,
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
  // Validating part of the snapshot saw part of the rules' reads: the live build's hold too.
  const ruleTypes = only
    ? [...new Set([...previous!.ruleTypes, ...findings.ruleTypes])].sort()
    : findings.ruleTypes
  const checked = performance.now()
  // The snapshot names the images; the source holds their files (or Sanity's CDN does).
  const images = await syncMedia(await getMediaAssets(snapshot), source, publicDir)
  return {
    documents,
    validated: only ? only.size : 'all',
    ruleTypes,
    images,
    checkMs: Math.round(checked - started),
    mediaMs: Math.round(performance.now() - checked),
  }
}
