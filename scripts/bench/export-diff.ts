/**
 * Two exports compared file by file, for "visitors' pages are byte for byte unchanged":
 * Next writes a random build id into each build (a folder under `_next/static/` and the
 * payload files), so a file that differs only by it counts as unchanged. Precompressed
 * copies (`.br`, `.gz`) follow their file and are left out.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { listFiles } from '../../lib/build-output.ts'
import { FRAMEWORK_PREFIX } from '../../postbuild/next-export-shape.ts'

/** What the comparison found; paths use `<build id>` for Next's id. */
export type ExportDiff = {
  identical: number
  /** Files equal once each build's id is replaced by the same placeholder. */
  onlyBuildId: number
  differ: string[]
  onlyBefore: string[]
  onlyAfter: string[]
}

/** Next's folders under `_next/static/` that are not the build id's. */
const NOT_THE_BUILD_ID = new Set(['chunks', 'media', 'css'])

/**
 * Next's build id of an export: the one folder of `_next/static/` that is not chunks, media or css.
 * @throws Error naming what it found when there is not exactly one (Next changed its export's shape)
 */
export function nextBuildIdOf(exportDir: string): string {
  const folder = path.join(exportDir, FRAMEWORK_PREFIX)
  const ids = readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !NOT_THE_BUILD_ID.has(entry.name))
    .map((entry) => entry.name)
    .sort()
  if (ids.length !== 1)
    throw new Error(`export-diff: expected one build id folder in ${folder}, found [${ids.join(', ')}]`)
  return ids[0]!
}

/** Every file of an export but the precompressed copies, by path with `<build id>` in place of the id. */
async function filesOf(exportDir: string, id: string): Promise<Map<string, string>> {
  const files = await listFiles(exportDir, { filter: (file) => !/\.(br|gz)$/.test(file) })
  return new Map(files.map((file) => [file.split(id).join('<build id>'), path.join(exportDir, file)]))
}

/**
 * @param before an export folder (e.g. the last commit's build)
 * @param after another (e.g. this checkout's out/)
 * @returns the counts and the paths that differ or exist on one side only
 */
export async function compareExports(before: string, after: string): Promise<ExportDiff> {
  const [idBefore, idAfter] = [nextBuildIdOf(before), nextBuildIdOf(after)]
  const [a, b] = await Promise.all([filesOf(before, idBefore), filesOf(after, idAfter)])
  const diff: ExportDiff = { identical: 0, onlyBuildId: 0, differ: [], onlyBefore: [], onlyAfter: [] }
  for (const [file, full] of a) {
    const other = b.get(file)
    if (!other) {
      diff.onlyBefore.push(file)
      continue
    }
    const [x, y] = [readFileSync(full), readFileSync(other)]
    if (x.equals(y)) diff.identical += 1
    else if (x.toString('latin1').split(idBefore).join('') === y.toString('latin1').split(idAfter).join(''))
      diff.onlyBuildId += 1
    else diff.differ.push(file)
  }
  diff.onlyAfter = [...b.keys()].filter((file) => !a.has(file))
  for (const list of [diff.differ, diff.onlyBefore, diff.onlyAfter]) list.sort()
  return diff
}
