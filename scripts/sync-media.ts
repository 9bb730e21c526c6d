/**
 * Copies every content image into public/media/ before a build (thin CLI over
 * lib/content). Local dataset: from studio/seed/images/; Sanity: downloaded once
 * at build time, so the exported site never calls Sanity's CDN.
 * Usage: node scripts/sync-media.ts   (run by `npm run build` and `npm run dev`)
 */
import path from 'node:path'
import { getMediaAssets } from '../lib/content/index.ts'
import { syncMedia } from '../lib/content/media.ts'
import { sourceFromEnv } from '../lib/content/source.ts'

const source = sourceFromEnv()
const count = await syncMedia(await getMediaAssets(source), source, path.resolve('public'))
const from =
  source.kind === 'local' ? path.relative(process.cwd(), source.file) : `Sanity project ${source.projectId}`
console.log(`sync-media: ${count} images from ${from} -> public/media/`)
