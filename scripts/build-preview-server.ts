/**
 * `npm run build:preview`: builds editors' preview server, the same app as the export
 * run as a Next server (next.config.mjs with NEXT_TARGET=preview-server, into
 * .next-preview/), and records the code version it was built from, so that `npm start`
 * builds it again only when the code changed (server/preview-build.ts runs this when
 * needed; run it by hand to have the preview ready as soon as the publisher starts).
 */
import { spawnSync } from 'node:child_process'
import { markPreviewBuild, previewCodeVersion } from '../server/preview-build.ts'

const root = process.cwd()
// Taken before the build: a change made while it runs makes the next start build again.
const version = await previewCodeVersion(root)
const started = performance.now()
const build = spawnSync('npx', ['next', 'build'], {
  cwd: root,
  env: { ...process.env, NEXT_TARGET: 'preview-server', NEXT_TELEMETRY_DISABLED: '1' },
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
