/**
 * The code version of the app: what a build of it depends on besides content and
 * settings. Two builds of the same code version get the same Next build id
 * (next.config.mjs `generateBuildId`), so a page whose content did not change is byte for
 * byte the page already live; the publisher builds its preview server again only when
 * the code version changed (server/preview-server.ts).
 */
import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'

/** The folders and files of the repository a build of the app reads (content aside). */
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

/** Folders inside CODE_PATHS that are content or output, not code. */
const NOT_CODE = new Set([
  'studio/seed',
  'studio/dist',
  'studio/node_modules',
  'studio/.sanity',
  'public/media',
])

/** Every file under a path, relative to root, sorted; NOT_CODE and missing paths left out. */
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
 * The code version: a sha256 of every code file's path and bytes (CODE_PATHS, NOT_CODE
 * aside). Neither content nor settings are in it: the preview server reads both on every
 * request (the environment at run time), so a publish never rebuilds it, and a build-time
 * setting it could bake in (the embedded Studio's project) is in a page it never serves
 * (`/studio` stays the live build's); for the export, content and settings change the
 * pages themselves, never the build id.
 * @param root the repository
 * @returns 64 hex digits
 */
export async function codeVersion(root: string): Promise<string> {
  const hash = createHash('sha256')
  for (const file of (await Promise.all(CODE_PATHS.map((entry) => codeFiles(root, entry)))).flat()) {
    hash.update(`${file}\n`)
    hash.update(await readFile(path.join(root, file)))
  }
  return hash.digest('hex')
}
