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

/** What the content step did, for the build's log and the bench. */
export type ContentStepResult = {
  /** The snapshot's documents (assets included). */
  documents: StoredDocument[]
  /** Images copied into public/media/. */
  images: number
  /** Reading and writing the snapshot, and validating it (ms). */
  checkMs: number
  /** Copying (and resizing) the images (ms). */
  mediaMs: number
}

/**
 * Takes the snapshot, validates it and syncs its images.
 * @param source where content comes from (the environment's: the dataset file or the
 *   Content Lake, published documents)
 * @param snapshotFile where to write the snapshot (NDJSON, the dataset file's format)
 * @param publicDir the app's public/ folder (images go to its media/ folder)
 * @throws ContentError naming the document and field when the content is invalid (nothing
 *   is copied then); Error when the source cannot be read
 */
export async function contentStep(
  source: ContentSource,
  snapshotFile: string,
  publicDir: string,
): Promise<ContentStepResult> {
  const started = performance.now()
  const documents = await readAllDocuments(source)
  await mkdir(path.dirname(snapshotFile), { recursive: true })
  // Written whole, then renamed: a reader never sees half a snapshot.
  const partial = `${snapshotFile}.${process.pid}.partial`
  await writeFile(partial, documents.map((doc) => JSON.stringify(doc)).join('\n') + '\n')
  await rename(partial, snapshotFile)
  const snapshot: ContentSource = { kind: 'local', file: snapshotFile, perspective: 'published' }
  await validateAllContent(snapshot)
  const checked = performance.now()
  // The snapshot names the images; the source holds their files (or Sanity's CDN does).
  const images = await syncMedia(await getMediaAssets(snapshot), source, publicDir)
  return {
    documents,
    images,
    checkMs: Math.round(checked - started),
    mediaMs: Math.round(performance.now() - checked),
  }
}
