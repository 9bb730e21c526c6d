/**
 * The Studio's Presentation connection for a preview build's pages: bundles
 * `postbuild/presentation/entry.ts` (Sanity's visual editing, loaded only when the page
 * is framed by the Studio) into `<export>/_preview/`, and adds a `<script type="module">`
 * for it to each page. Visitors' builds never call this: their pages, and Next's build
 * of the site (the same for both kinds of build, so its compiled cache serves both),
 * carry nothing of it.
 *
 * The bundler is rolldown, which the project already installs with Sanity's CLI (the
 * Studio's own build). The bundle depends only on this folder's sources and the
 * installed packages, so it is kept in a cache folder between builds.
 */
import { spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { cp, readdir, readFile, rename, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'

/** Where the connection's files go in an export, and their URL path. */
export const CONNECTION_DIR = '_preview'

const here = path.dirname(new URL(import.meta.url).pathname)
const ENTRY = path.join(here, 'presentation', 'entry.ts')
const BUNDLER = path.join(here, 'presentation', 'bundle.ts')
/** Every file the bundle is made from (the bundler's settings included). */
const SOURCES = [
  ENTRY,
  path.join(here, 'presentation', 'connect.ts'),
  path.join(here, '..', 'lib', 'preview-rebuild.ts'),
  BUNDLER,
]
const require = createRequire(import.meta.url)
/** The installed versions the bundle is made of (a change makes a new bundle). */
const PACKAGES = ['rolldown', '@sanity/visual-editing', 'react', 'react-dom']

/** What the bundle is made of: its sources and the packages' versions. */
async function bundleKey(): Promise<string> {
  const hash = createHash('sha256')
  for (const file of SOURCES) hash.update(await readFile(file))
  for (const name of PACKAGES) hash.update(`${name}@${require(`${name}/package.json`).version}`)
  return hash.digest('hex').slice(0, 16)
}

/**
 * Bundles the connection into `dir`, in a process of its own (bundle.ts): rolldown is an
 * ES module with a native binding, which the unit tests' CommonJS runtime cannot load.
 * @throws Error with rolldown's message when the bundle fails
 */
async function bundle(dir: string): Promise<void> {
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BUNDLER, ENTRY, dir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('close', (code) => resolve({ code, stderr }))
  })
  if (code !== 0) throw new Error(`postbuild: bundling the Presentation connection failed:\n${stderr}`)
}

/**
 * Puts the connection's files into an export, from the cache or bundled anew.
 * @param root the export folder
 * @param cacheDir where bundles are kept between builds (none: bundled every time)
 * @returns the URL path of the script each page loads, e.g. `/_preview/connection-Ab12.js`
 * @throws Error when bundling fails, or when the bundle has no `connection-*.js` entry
 */
export async function addPresentationConnection(root: string, cacheDir?: string): Promise<string> {
  const target = path.join(root, CONNECTION_DIR)
  const cached = cacheDir && path.join(cacheDir, await bundleKey())
  const made = cached ? await readdir(cached).catch(() => null) : null
  if (cached && !made) {
    // Bundled aside and renamed into place: builds running at once never see half a bundle.
    const partial = `${cached}.${process.pid}-${randomBytes(4).toString('hex')}`
    await bundle(partial)
    await rename(partial, cached).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error
      await rm(partial, { recursive: true, force: true }) // another build put the same bundle there
    })
    // Only the current bundle is kept (bundles in the making have a '.' in their name).
    for (const old of await readdir(cacheDir))
      if (!old.includes('.') && old !== path.basename(cached))
        await rm(path.join(cacheDir, old), { recursive: true, force: true })
  }
  if (cached) await cp(cached, target, { recursive: true })
  else await bundle(target)
  const entry = (await readdir(target)).find((file) => /^connection-[\w-]+\.js$/.test(file))
  if (!entry)
    throw new Error(`postbuild: the Presentation connection bundle in ${target} has no connection-*.js`)
  return `/${CONNECTION_DIR}/${entry}`
}

/**
 * A page with the connection's script added before `</body>`.
 * @param relative the page's path in the export (for the error)
 * @throws Error when the page has no `</body>`
 */
export function withConnectionScript(relative: string, html: string, src: string): string {
  const end = html.lastIndexOf('</body>')
  if (end < 0)
    throw new Error(`postbuild: ${relative} has no </body> to add the Presentation connection before`)
  return `${html.slice(0, end)}<script type="module" src="${src}"></script>${html.slice(end)}`
}
