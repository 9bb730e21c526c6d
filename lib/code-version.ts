/**
 * The code version of the app: the same code gets the same Next build id (so an unchanged page
 * stays byte for byte the same), and the publisher rebuilds its preview server only when it
 * changes (server/preview/preview-build.ts).
 */
import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'

const CODE_PATHS = [
  'app',
  'components',
  'lib',
  'studio',
  'public',
  'assets',
  'next.config.mjs',
  'package-lock.json',
  'package.json',
  'tsconfig.json',
  'postcss.config.mjs',
]

const NOT_CODE = new Set([
  'studio/seed',
  'studio/dist',
  'studio/node_modules',
  'studio/.sanity',
  'public/media',
])

async function codeFiles(root: string, relative: string): Promise<string[]> {
  if (NOT_CODE.has(relative)) return []
  const entries = await readdir(path.join(root, relative), { withFileTypes: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOTDIR') return null
      if (error.code === 'ENOENT') return []
      throw error
    },
  )
  if (entries === null) return [relative]
  const nested = await Promise.all(
    entries
      .filter((entry) => entry.isDirectory() || entry.isFile())
      .map((entry) => codeFiles(root, path.posix.join(relative, entry.name))),
  )
  return nested.flat().sort()
}

/**
 * The code version: a sha256 (64 hex digits) of every code file's path and bytes. Content and
 * settings are not in it: the preview server reads both per request, and the export's pages hold them.
 */
export async function codeVersion(root: string): Promise<string> {
  const hash = createHash('sha256')
  for (const file of (await Promise.all(CODE_PATHS.map((entry) => codeFiles(root, entry)))).flat()) {
    hash.update(`${file}\n`)
    hash.update(await readFile(path.join(root, file)))
  }
  return hash.digest('hex')
}
