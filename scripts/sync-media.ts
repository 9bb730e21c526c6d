/**
 * The build's first content step (thin CLI over lib/content): validates all
 * published content, what the build renders (`sourceFromEnv`: drafts and release
 * versions are the preview server's, never a build's); a bad field, e.g. a
 * `javascript:` link, stops the build here with the document `_id` and field,
 * exit code 1, before anything is written. Then copies every content image into
 * public/media/. Local dataset: from
 * studio/seed/images/; Sanity: downloaded once at build time, so the exported
 * site never calls Sanity's CDN.
 * Usage: node scripts/sync-media.ts   (run by `npm run build` and `npm run dev`)
 */
import path from 'node:path'
import { validateAllContent } from '../lib/content/check.ts'
import { ContentError, getMediaAssets } from '../lib/content/index.ts'
import { syncMedia } from '../lib/content/media.ts'
import { sourceFromEnv } from '../lib/content/source.ts'

const source = sourceFromEnv()
try {
  await validateAllContent(source)
} catch (error) {
  if (!(error instanceof ContentError)) throw error
  console.error(`sync-media: ${error.message}`)
  process.exit(1)
}
const count = await syncMedia(await getMediaAssets(source), source, path.resolve('public'))
const from =
  source.kind === 'local' ? path.relative(process.cwd(), source.file) : `Sanity project ${source.projectId}`
console.log(`sync-media: ${count} images from ${from} -> public/media/`)
