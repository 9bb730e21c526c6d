/**
 * `npm run build`: the static export in out/, in timed steps:
 * 1. content check: one snapshot of the published content (the dataset file or the
 *    Content Lake), validated; a bad field stops the build here, naming the document
 *    and field (scripts/build/content-step.ts);
 * 2. media: the snapshot's images into public/media/;
 * 3. compile: Next bundles the app, only when the code (or a build-time setting) changed
 *    since the last compile (scripts/build/next-steps.ts);
 * 4. render: Next renders every page from the snapshot into out/;
 * 5. postbuild: out/ made deployable and marked complete (scripts/postbuild.ts).
 * Each step's time is printed and written to `out/.build-phases.json` (the publisher
 * reports it at /healthz, the bench reads it there). The publisher runs this for every
 * publish (server/main.ts), with PREVIOUS_BUILD_DIR naming the live build.
 */
import { spawnSync } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { BUILD_PHASES_FILE } from '../lib/build-output.ts'
import { ContentError } from '../lib/content/index.ts'
import { sourceFromEnv } from '../lib/content/source.ts'
import { contentStep } from './build/content-step.ts'
import { compileKey, isCompiled, markCompiled, runNextBuild } from './build/next-steps.ts'

const root = process.cwd()
const cacheDir = path.join(root, '.cache/build')
const snapshotFile = path.join(cacheDir, 'content.ndjson')
// The build's own steps read the snapshot; the content step reads the real source.
const environment = { ...process.env }
delete environment.CONTENT_SNAPSHOT
const withSnapshot = { ...environment, CONTENT_SNAPSHOT: snapshotFile }

/** Each step's time in ms, in the order above. */
const phases: Record<string, number> = {}
const timed = async <T>(name: string, step: () => T | Promise<T>): Promise<T> => {
  const started = performance.now()
  try {
    return await step()
  } finally {
    phases[name] = Math.round(performance.now() - started)
  }
}

let content
try {
  content = await contentStep(sourceFromEnv(environment), snapshotFile, path.join(root, 'public'))
} catch (error) {
  if (!(error instanceof ContentError)) throw error
  console.error(`build: ${error.message}`)
  process.exit(1)
}
phases['content check'] = content.checkMs
phases.media = content.mediaMs
console.log(`build: ${content.documents} documents checked, ${content.images} images -> public/media/`)

const key = await compileKey(root, environment)
const compiled = await isCompiled(root, key)
await timed('compile', async () => {
  if (compiled) return console.log('build: the code is compiled already (same code and settings)')
  await runNextBuild(root, 'compile', environment)
  await markCompiled(root, key)
})
await timed('render', () => runNextBuild(root, 'generate', withSnapshot))
await timed('postbuild', () => {
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/postbuild.ts')], {
    cwd: root,
    env: withSnapshot,
    stdio: 'inherit',
  })
  if (result.status !== 0)
    throw new Error(`postbuild failed: ${result.signal ?? `exit code ${result.status}`}`)
})

// Beside the build's marker, for the publisher's /healthz and the bench.
await writeFile(path.join(root, 'out', BUILD_PHASES_FILE), JSON.stringify(phases, null, 2) + '\n')
console.log(
  `build: ${Object.entries(phases)
    .map(([name, ms]) => `${name} ${(ms / 1000).toFixed(1)} s`)
    .join(', ')}`,
)
