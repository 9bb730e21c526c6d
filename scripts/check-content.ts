/** `npm run dev`'s content step, the build's first: validates the published content and copies its images. */
import path from 'node:path'
import { ContentError } from '../lib/content/index.ts'
import { sourceFromEnv } from '../lib/content/source.ts'
import { contentStep } from '../site-build/content-step.ts'

const source = sourceFromEnv()
try {
  const result = await contentStep(source, path.resolve('.cache/dev/content.ndjson'), path.resolve('public'))
  const from =
    source.kind === 'local' ? path.relative(process.cwd(), source.file) : `Sanity project ${source.projectId}`
  console.log(`check-content: ${result.images} images from ${from} -> public/media/`)
} catch (error) {
  if (!(error instanceof ContentError)) throw error
  console.error(`check-content: ${error.message}`)
  process.exit(1)
}
