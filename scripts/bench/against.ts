/**
 * Another revision's build beside out/ (`--bytes-against REV`): each page's bytes, and the two exports
 * compared file by file, a file that differs only by Next's random build id counted as unchanged
 * (precompressed copies follow their file and are left out).
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { listFiles } from '../../lib/build-output.ts'
import { FRAMEWORK_PREFIX } from '../../site-build/next-export-shape.ts'
import { routeBytes, type RouteBytes } from './bytes.ts'
import type { Tables } from './harness.ts'

/** Next's build id of an export: the one folder of `_next/static/` that is not chunks, media or css; throws naming what it found otherwise. */
export function nextBuildIdOf(exportDir: string): string {
  const folder = path.join(exportDir, FRAMEWORK_PREFIX)
  const ids = readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !['chunks', 'media', 'css'].includes(entry.name))
    .map((entry) => entry.name)
  if (ids.length !== 1)
    throw new Error(`bench: expected one build id folder in ${folder}, found [${ids.sort().join(', ')}]`)
  return ids[0]!
}

/** Two exports (e.g. an older commit's and out/) compared: counts, and the paths (`<build id>` for Next's id) that differ or exist on one side only, sorted. */
export async function compareExports(before: string, after: string) {
  const ids = [nextBuildIdOf(before), nextBuildIdOf(after)] as const
  const [a, b] = await Promise.all(
    [before, after].map(async (dir, side) => {
      const files = await listFiles(dir, { filter: (file) => !/\.(br|gz)$/.test(file) })
      return new Map(files.map((file) => [file.split(ids[side]!).join('<build id>'), path.join(dir, file)]))
    }),
  )
  const diff = {
    identical: 0,
    onlyBuildId: 0,
    differ: [] as string[],
    onlyBefore: [] as string[],
    onlyAfter: [] as string[],
  }
  for (const [file, full] of a!) {
    const other = b!.get(file)
    if (!other) diff.onlyBefore.push(file)
    else {
      const [x, y] = [readFileSync(full), readFileSync(other)]
      const withoutId = (bytes: Buffer, id: string) => bytes.toString('latin1').split(id).join('')
      if (x.equals(y)) diff.identical += 1
      else if (withoutId(x, ids[0]) === withoutId(y, ids[1])) diff.onlyBuildId += 1
      else diff.differ.push(file)
    }
  }
  diff.onlyAfter = [...b!.keys()].filter((file) => !a!.has(file))
  for (const list of [diff.differ, diff.onlyBefore, diff.onlyAfter]) list.sort()
  return diff
}

/** Runs a command, failing with its output when it fails. */
function run(command: string, args: string[], cwd: string, env = process.env) {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8' })
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${result.stderr || result.stdout}`)
}

/** Builds `revision` in a temporary git worktree (node_modules hard-linked: Turbopack reads nothing outside the project) on its own embedded default, and compares its export with out/. */
export async function measureAgainst(revision: string): Promise<Tables> {
  console.log(`bench: building ${revision} for its bytes and files...`)
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-at-'))
  const tree = path.join(dir, 'tree')
  run('git', ['worktree', 'add', '--detach', tree, revision], process.cwd())
  let before: RouteBytes[], files: Awaited<ReturnType<typeof compareExports>>
  try {
    run('cp', ['-al', path.resolve('node_modules'), path.join(tree, 'node_modules')], process.cwd())
    const env = { ...process.env }
    delete env.SANITY_PROJECT_ID
    delete env.CONTENT_PERSPECTIVE
    run('npm', ['run', 'build'], tree, env)
    before = await routeBytes(path.join(tree, 'out'))
    files = await compareExports(path.join(tree, 'out'), 'out')
  } finally {
    run('git', ['worktree', 'remove', '--force', tree], process.cwd())
    rmSync(dir, { recursive: true, force: true })
  }
  const now = await routeBytes('out')
  const routes = [...new Set([...before, ...now].map((row) => row.route))].sort()
  const lists = {
    differ: files.differ,
    [`only in ${revision}`]: files.onlyBefore,
    'only in out/': files.onlyAfter,
  }
  return {
    [`Bytes per page, ${revision} -> out/ (HTML + RSC + JS + CSS + images; brotli moves with the build id)`]:
      Object.fromEntries(
        routes.map((route) => {
          const [a, b] = [before.find((row) => row.route === route), now.find((row) => row.route === route)]
          const raw = [a?.raw ?? NaN, b?.raw ?? NaN]
          const br = [a?.br ?? NaN, b?.br ?? NaN]
          return [
            route,
            {
              [`raw ${revision}`]: raw[0],
              'raw now': raw[1],
              [`br ${revision}`]: br[0],
              'br now': br[1],
              'raw change': raw[1]! - raw[0]!,
            },
          ]
        }),
      ),
    [`Files of ${revision}'s build -> out/`]: {
      identical: { files: files.identical },
      'differ only by the build id': { files: files.onlyBuildId },
      ...Object.fromEntries(
        Object.entries(lists).map(([label, list]) => [label, { files: list.length, which: list.join(' ') }]),
      ),
    },
  }
}
