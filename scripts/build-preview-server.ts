/** `npm run build:preview`: the published images into public/media/, then the preview server's Next build, marked with its code version. */
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { ContentError, getMediaAssets } from '../lib/content/index.ts'
import { syncMedia } from '../lib/content/media-sync.ts'
import { sourceFromEnv } from '../lib/content/source.ts'
import { codeVersion } from '../lib/code-version.ts'
import { NEXT_TARGET_ENV, PREVIEW_SERVER_TARGET } from '../lib/next-target.ts'
import { markPreviewBuild } from '../server/preview/preview-build.ts'

const root = process.cwd()
// Taken before the build: a change made while it runs makes the next start build again.
const version = await codeVersion(root)
const started = performance.now()
const source = sourceFromEnv()
try {
  const images = await syncMedia(
    await getMediaAssets(source),
    source,
    path.join(root, 'public'),
    path.join(root, '.cache/media'),
    'add',
  )
  console.log(`build:preview: the published content's ${images} images are in public/media/`)
} catch (error) {
  if (!(error instanceof ContentError)) throw error
  console.error(`build:preview: ${error.message}`)
  process.exit(1)
}
const build = spawnSync('npx', ['next', 'build'], {
  cwd: root,
  env: { ...process.env, [NEXT_TARGET_ENV]: PREVIEW_SERVER_TARGET, NEXT_TELEMETRY_DISABLED: '1' },
  stdio: 'inherit',
})
if (build.status !== 0) {
  console.error(`build:preview: next build failed (${build.signal ?? `exit code ${build.status}`})`)
  process.exit(1)
}
await markPreviewBuild(root, version)
console.log(
  `build:preview: the preview server is built (${((performance.now() - started) / 1000).toFixed(1)} s)`,
)
