/** `npm run build`: the static export in out/, in the timed steps of docs/architecture.md, "Data flow". */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { BUILD_PHASES_FILE, CONTENT_CHECKED_LINE } from '../lib/build-output.ts'
import { ContentError } from '../lib/content/index.ts'
import { INLINE_IMAGE_CACHE_ENV } from '../lib/content/inline-image.ts'
import { sourceFromEnv, type ContentSource } from '../lib/content/source.ts'
import { contentStep } from '../site-build/content-step.ts'
import { compileKey, isCompiled, markCompiled, runNextBuild } from '../site-build/next-steps.ts'
import {
  CONTENT_READS_FILE,
  dependencyMap,
  planRender,
  readDependencyMap,
  type RenderPlan,
} from '../lib/content/render-plan.ts'
import { postbuildStep } from '../site-build/finalize.ts'
import { reusePages } from '../site-build/reuse-pages.ts'

const root = process.cwd()
const outDir = path.join(root, 'out')
const cacheDir = path.join(root, '.cache/build')
const snapshotFile = path.join(cacheDir, 'content.ndjson')
const readsDir = path.join(cacheDir, 'reads')
const planFile = path.join(cacheDir, 'reused-pages.json')
// The files this build took from the live one, for the operator and the rebuilds' tests.
const reusedFile = path.join(cacheDir, 'reused-files.json')
const inlineImagesDir = path.join(cacheDir, 'inline-images')
// The build's own steps read the snapshot; the content step reads the real source.
const environment = { ...process.env }
for (const name of ['CONTENT_SNAPSHOT', 'CONTENT_READS_DIR', 'REUSED_PAGES', INLINE_IMAGE_CACHE_ENV])
  delete environment[name]
const snapshot: ContentSource = { kind: 'local', file: snapshotFile, perspective: 'published' }
const previousDir = environment.PREVIOUS_BUILD_DIR ? path.resolve(environment.PREVIOUS_BUILD_DIR) : null

const phases: Record<string, number> = {}
const timed = async <T>(name: string, step: () => T | Promise<T>): Promise<T> => {
  const started = performance.now()
  try {
    return await step()
  } finally {
    phases[name] = Math.round(performance.now() - started)
  }
}

// Another compile's map is no baseline for the content check.
const key = await compileKey(root, environment)
const live = previousDir ? await readDependencyMap(previousDir) : null
const previous = live?.compileKey === key ? live : null
let content
try {
  content = await contentStep(sourceFromEnv(environment), snapshotFile, path.join(root, 'public'), previous)
} catch (error) {
  if (!(error instanceof ContentError)) throw error
  console.error(`build: ${error.message}`)
  process.exit(1)
}
phases['content check'] = content.checkMs
phases.media = content.mediaMs
// The publisher waits for this line to start the gate's HTML checker.
console.log(CONTENT_CHECKED_LINE)
console.log(
  `build: ${content.documents.length} documents, ${content.validated === 'all' ? 'all' : `the ${content.validated} changed`} validated; ` +
    `${content.images} images -> public/media/`,
)
await timed('compile', async () => {
  if (await isCompiled(root, key)) return console.log('build: the code is compiled already')
  await runNextBuild(root, 'compile', environment)
  await markCompiled(root, key)
})

const plan: RenderPlan = await timed('plan', () =>
  environment.FULL_RENDER === '1'
    ? { kind: 'full', reason: 'FULL_RENDER=1' }
    : planRender(live, content.documents, snapshot, key),
)
if (plan.kind === 'full') console.log(`build: rendering every page (${plan.reason})`)
else {
  const kept = Object.values(plan.reuse).reduce((sum, units) => sum + units.length, 0)
  console.log(
    `build: ${plan.changed.length} documents changed; ${plan.rerun} recorded reads run again, ` +
      `${plan.differ} differ; ${kept} pages taken from the live build`,
  )
}
const reuse = plan.kind === 'partial' ? plan.reuse : {}
await mkdir(cacheDir, { recursive: true })
await writeFile(planFile, JSON.stringify({ reuse }) + '\n')
await rm(readsDir, { recursive: true, force: true })

// Inlined images are kept per compile (their results depend on the code); other compiles' go.
const inlineImages = path.join(inlineImagesDir, key.slice(0, 16))
for (const name of await readdir(inlineImagesDir).catch(() => []))
  if (name !== path.basename(inlineImages))
    await rm(path.join(inlineImagesDir, name), { recursive: true, force: true })

await timed('render', () =>
  runNextBuild(root, 'generate', {
    ...environment,
    CONTENT_SNAPSHOT: snapshotFile,
    CONTENT_READS_DIR: readsDir,
    REUSED_PAGES: planFile,
    [INLINE_IMAGE_CACHE_ENV]: inlineImages,
  }),
)
const reused = await timed('reuse', () => (previousDir ? reusePages(previousDir, outDir, reuse) : []))
await writeFile(reusedFile, JSON.stringify(reused) + '\n')

console.log(await timed('postbuild', () => postbuildStep(outDir, snapshot, previousDir, reused, environment)))

const map = await dependencyMap(readsDir, content.documents, key, previous, reuse, content.ruleReads)
await writeFile(path.join(outDir, CONTENT_READS_FILE), JSON.stringify(map) + '\n')
await writeFile(path.join(outDir, BUILD_PHASES_FILE), JSON.stringify(phases, null, 2) + '\n')
console.log(
  `build: ${Object.entries(phases)
    .map(([name, ms]) => `${name} ${(ms / 1000).toFixed(1)} s`)
    .join(', ')}`,
)
