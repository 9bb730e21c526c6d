/** Next's part of the build in two halves: compile (once per code version and baked setting), then generate out/. */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { access, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { codeVersion } from '../lib/code-version.ts'

/** What the last compile compiled; Next keeps `.next/cache` between builds. */
const COMPILED_MARKER = '.next/cache/compiled.json'

/** The settings Next bakes into bundles; content settings are read at render time instead. */
const BAKED_ENV = /^(NEXT_PUBLIC_|SANITY_STUDIO_)/

/** What a compile depends on (code version and baked settings), as 64 hex digits. */
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

/** Whether `.next/` holds a whole compile of this key: the marker and Next's BUILD_ID agree. */
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

/** Runs one half of `next build` (generate needs CONTENT_SNAPSHOT); throws naming the mode and Next's exit. */
export async function runNextBuild(
  root: string,
  mode: 'compile' | 'generate',
  env: NodeJS.ProcessEnv,
): Promise<void> {
  // A stale manifest is cached by generate's first read and its copy then skips new pages.
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

const PRERENDER_MANIFEST = '.next/prerender-manifest.json'

/** How many pages Next's manifest says it rendered (error pages aside); throws naming the first not in `outDir`. */
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
