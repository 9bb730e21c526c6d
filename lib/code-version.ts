/** The app's code version: the export's Next build id, and when the publisher rebuilds its preview server (server/preview/preview-build.ts). */
import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { listFiles } from './build-output.ts'

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

// Folders under CODE_PATHS that hold content, output or packages, not code.
const NOT_CODE = ['studio/seed', 'studio/dist', 'studio/node_modules', 'studio/.sanity', 'public/media']

/** The code files under one of CODE_PATHS (itself when a file), `/`-separated from root, sorted. */
async function codeFiles(root: string, entry: string): Promise<string[]> {
  const info = await stat(path.join(root, entry)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null
    throw error
  })
  if (!info?.isDirectory()) return info ? [entry] : []
  const files = (await listFiles(path.join(root, entry))).map((file) => `${entry}/${file}`)
  return files.filter((file) => !NOT_CODE.some((dir) => file.startsWith(`${dir}/`)))
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
