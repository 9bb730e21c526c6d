/** The app's code version: the export's Next build id, and when the publisher rebuilds its preview server (server/preview/preview-build.ts). */
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

/** A sha256 (64 hex digits) of every code file's path and bytes; content and settings, read at render time, are not in it. */
export async function codeVersion(root: string): Promise<string> {
  const hash = createHash('sha256')
  for (const file of (await Promise.all(CODE_PATHS.map((entry) => codeFiles(root, entry)))).flat()) {
    hash.update(`${file}\n`)
    hash.update(await readFile(path.join(root, file)))
  }
  return hash.digest('hex')
}
