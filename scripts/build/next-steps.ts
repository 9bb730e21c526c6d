/**
 * Next.js's part of the build, in its two halves (`next build --experimental-build-mode`):
 * - compile: bundles the app (and type-checks it, unless PUBLISH_BUILD=1); its output
 *   depends on the code only, so it runs once per code version and build-time setting;
 * - generate: renders every page from the content snapshot into out/ (the static export).
 * A publish changes content, not code: it only generates.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { access, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { codeVersion } from '../../lib/code-version.ts'

/** Where the compile step records what it compiled (Next keeps `.next/cache` between builds). */
const COMPILED_MARKER = '.next/cache/compiled.json'

/**
 * The build-time settings that Next bakes into the compiled bundles: `NEXT_PUBLIC_*`
 * (inlined in client code) and the embedded Studio's `SANITY_STUDIO_*`. Content settings
 * are read when pages render, so they are not here.
 */
const BAKED_ENV = /^(NEXT_PUBLIC_|SANITY_STUDIO_)/

/**
 * What a compile depends on: the code version (lib/code-version.ts) and the settings
 * Next bakes in. Two compiles with the same key give the same bundles.
 * @returns 64 hex digits
 */
export async function compileKey(root: string, env: NodeJS.ProcessEnv): Promise<string> {
  const baked = Object.keys(env)
    .filter((name) => BAKED_ENV.test(name))
    .sort()
    .map((name) => `${name}=${env[name]}`)
  return createHash('sha256')
    .update(await codeVersion(root))
    .update(JSON.stringify(baked))
    .digest('hex')
}

/**
 * Whether `.next/` holds a compile of this key: the marker says so, and the build id Next
 * wrote is the one next.config.mjs gives this code (a compile by anything else, or a
 * half-written one, fails the check and compiles again).
 */
export async function isCompiled(root: string, key: string): Promise<boolean> {
  try {
    const marker = JSON.parse(await readFile(path.join(root, COMPILED_MARKER), 'utf8')) as {
      key?: string
      buildId?: string
    }
    const buildId = (await readFile(path.join(root, '.next/BUILD_ID'), 'utf8')).trim()
    return marker.key === key && marker.buildId === buildId
  } catch {
    return false
  }
}

/** Records that `.next/` holds a compile of this key (after a compile succeeded). */
export async function markCompiled(root: string, key: string): Promise<void> {
  const buildId = (await readFile(path.join(root, '.next/BUILD_ID'), 'utf8')).trim()
  await writeFile(path.join(root, COMPILED_MARKER), JSON.stringify({ key, buildId }) + '\n')
}

const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next')

/**
 * Runs one half of `next build` in the repository, its output shown as it comes.
 * @param mode 'compile' or 'generate'
 * @param env the child's environment (generate needs CONTENT_SNAPSHOT)
 * @throws Error naming the mode and how Next exited when it fails
 */
export async function runNextBuild(
  root: string,
  mode: 'compile' | 'generate',
  env: NodeJS.ProcessEnv,
): Promise<void> {
  // Next's generate step reads the prerender manifest twice in one process: to render, then
  // to copy each page into out/. Left on disk from the last build, the first read caches
  // that build's list of pages, and the copy then misses any page that is new. Without the
  // file, the first read finds none (as in a full build, which starts from an empty .next/)
  // and the copy reads the list this build wrote. exportedPages() below checks the result.
  if (mode === 'generate') await rm(path.join(root, PRERENDER_MANIFEST), { force: true })
  const result = spawnSync(process.execPath, [nextBin, 'build', '--experimental-build-mode', mode], {
    cwd: root,
    env: { ...env, NEXT_TELEMETRY_DISABLED: '1' },
    stdio: 'inherit',
  })
  if (result.status !== 0)
    throw new Error(`next build (${mode}) failed: ${result.signal ?? `exit code ${result.status}`}`)
  if (mode === 'generate') await exportedPages(root, path.join(root, 'out'))
}

/** Next's list of the pages a build rendered, beside its output (`.next/`). */
const PRERENDER_MANIFEST = '.next/prerender-manifest.json'

/**
 * Checks that every page Next says it rendered is in the export: `<route>.html` for a page
 * (`index.html` for `/`), the file itself for a route handler (`/og/home.png`,
 * `/sitemap.xml`). Next's error pages are left out (`/_not-found` is `404.html`).
 * @returns how many pages there are
 * @throws Error naming the first missing page (Next's export did not copy what it rendered)
 */
export async function exportedPages(root: string, outDir: string): Promise<number> {
  const manifest = JSON.parse(await readFile(path.join(root, PRERENDER_MANIFEST), 'utf8')) as {
    routes?: Record<string, unknown>
  }
  if (!manifest.routes) throw new Error(`${PRERENDER_MANIFEST} has no "routes": Next's manifest changed`)
  const routes = Object.keys(manifest.routes).filter((route) => !/^\/_(not-found|global-error)$/.test(route))
  for (const route of routes) {
    const candidates = route === '/' ? ['index.html'] : [`${route.slice(1)}.html`, route.slice(1)]
    const found = await Promise.any(candidates.map((file) => access(path.join(outDir, file)))).then(
      () => true,
      () => false,
    )
    if (!found)
      throw new Error(`next build (generate) rendered ${route} but did not export it into ${outDir}`)
  }
  return routes.length
}
