/**
 * The last step of `npm run build`: turns Next's export in `out/` into a
 * deployable site. It decodes percent-encoded file names, adds the font preload
 * Next leaves out of the 404 page (font-preload.ts), moves Next's scripts
 * after the first paint (paint-first.ts), writes `_headers`, precompresses, and finally writes `.build.json`, the marker that says the
 * build is complete (the publisher never puts a build live without it).
 */
import { randomBytes } from 'node:crypto'
import { readdir, readFile, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { preloadPageFonts } from './font-preload.ts'
import { deferFrameworkScripts } from './paint-first.ts'
import { precompressSite, type PrecompressResult } from './precompress.ts'
import { formatHeadersFile, headerRules, type IntegrationSettings } from './security-headers.ts'
import { FALLBACKS, urlPathOf } from './site-files.ts'

/** Name of the completion marker inside a build. */
export const BUILD_MARKER = '.build.json'

/** What `.build.json` records about a build. */
export type BuildInfo = { id: string; builtAt: string }

/**
 * A sortable, unique build id: UTC time to the millisecond plus 4 random hex digits,
 * e.g. `20261122-183012-345-a3f9`.
 */
export function newBuildId(now = new Date()): string {
  const iso = now.toISOString() // 2026-11-22T18:30:12.345Z
  const stamp = `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}-${iso.slice(20, 23)}`
  return `${stamp}-${randomBytes(2).toString('hex')}`
}

async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name))
}

/**
 * Renames files and folders whose names are percent-encoded (`Osteopath%20Lancing.html`)
 * to the decoded name a host looks for once it has decoded the URL path.
 * @returns the renamed paths, relative to root
 */
export async function decodeFileNames(root: string): Promise<string[]> {
  const renamed: string[] = []
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  // Deepest first, so renaming a folder never invalidates a path still to visit.
  const sorted = entries.sort((a, b) => b.parentPath.length - a.parentPath.length)
  for (const entry of sorted) {
    let decoded: string
    try {
      decoded = decodeURIComponent(entry.name)
    } catch {
      continue
    }
    if (decoded === entry.name) continue
    if (decoded.includes('/') || decoded.includes('\\'))
      throw new Error(`${entry.name}: decodes to a name with a path separator`)
    await rename(path.join(entry.parentPath, entry.name), path.join(entry.parentPath, decoded))
    renamed.push(path.relative(root, path.join(entry.parentPath, decoded)))
  }
  return renamed
}

/**
 * The RSC payload file Next writes beside an exported page: `<page>.txt`, except for
 * the 404 page, whose payload is its twin's, `_not-found.txt` (Next writes `404.html`
 * as a copy of `_not-found.html` and no `404.txt`). The caller still cuts the inline
 * copy only when the file holds the same bytes (paint-first.ts).
 * @param root absolute path of the export
 * @param file absolute path of an `.html` file in it
 * @returns the absolute path of its payload file (which may not exist)
 */
export function payloadFileOf(root: string, file: string): string {
  if (path.relative(root, file) === '404.html') return path.join(root, '_not-found.txt')
  return file.replace(/\.html$/, '.txt')
}

/** What `finalizeExport` did, for the build log. */
export type FinalizeResult = {
  info: BuildInfo
  renamed: string[]
  pages: number
  compressed: PrecompressResult
}

/**
 * Finalizes an export in place (see the module comment).
 * @param root absolute path of Next's export (`out/`)
 * @param settings the integrations site settings name (for the Content-Security-Policy)
 * @param options cacheDir: cache of compressed copies between builds (see precompressSite);
 *   studioProjectId: the project the embedded Studio edits, if any (its page's CSP allows Sanity)
 * @throws Error when the export has no index.html (Next did not finish)
 */
export async function finalizeExport(
  root: string,
  settings: IntegrationSettings,
  options: { cacheDir?: string; studioProjectId?: string | null } = {},
): Promise<FinalizeResult> {
  const renamed = await decodeFileNames(root)
  const files = await listFiles(root)
  if (!files.includes(path.join(root, 'index.html'))) throw new Error(`${root}: no index.html, not an export`)
  const fileSet = new Set(files)
  const pages = await Promise.all(
    files
      .filter((file) => file.endsWith('.html'))
      .map(async (file) => {
        const exported = await readFile(file, 'utf8')
        // Next's chunks start after the first paint (paint-first.ts); the CSP below hashes the loader.
        // The page's RSC payload file, `<page>.txt`, lets its inline copy go as well.
        const payloadFile = payloadFileOf(root, file)
        const payload = fileSet.has(payloadFile)
          ? {
              url: encodeURI('/' + path.relative(root, payloadFile).split(path.sep).join('/')),
              text: await readFile(payloadFile, 'utf8'),
            }
          : undefined
        // Every page preloads the site font, the 404 page included (font-preload.ts).
        const html = deferFrameworkScripts(preloadPageFonts(exported), payload)
        if (html !== exported) await writeFile(file, html)
        return { urlPath: urlPathOf(path.relative(root, file).split(path.sep).join('/')), html }
      }),
  )
  await writeFile(
    path.join(root, '_headers'),
    formatHeadersFile(headerRules(pages, settings, { studioProjectId: options.studioProjectId })),
  )
  await writeFile(
    path.join(root, '_redirects'),
    redirectsFile(files.map((file) => path.relative(root, file))),
  )
  const compressed = await precompressSite(root, options.cacheDir)
  const info: BuildInfo = { id: newBuildId(), builtAt: new Date().toISOString() }
  await writeFile(path.join(root, BUILD_MARKER), JSON.stringify(info, null, 2) + '\n')
  return { info, renamed, pages: pages.length, compressed }
}

/**
 * `_redirects` (Netlify / Cloudflare Pages format) for static hosts: the rewrites
 * this project's server does itself (see `FALLBACKS` in site-files.ts), e.g. every
 * `/studio/...` deep link answered with the Studio page.
 * @param files the build's files, relative to its root
 */
export function redirectsFile(files: string[]): string {
  const lines = FALLBACKS.filter((fallback) => files.includes(fallback.file)).map(
    (fallback) => `${fallback.prefix}*  /${fallback.file.replace(/\.html$/, '')}  200`,
  )
  return `# Generated by scripts/postbuild.ts. Do not edit.\n${lines.join('\n')}\n`
}

/**
 * Reads a build's marker.
 * @returns the build's id and time, or null when the build is incomplete
 */
export async function readBuildInfo(root: string): Promise<BuildInfo | null> {
  try {
    const info = JSON.parse(await readFile(path.join(root, BUILD_MARKER), 'utf8')) as BuildInfo
    return typeof info.id === 'string' && typeof info.builtAt === 'string' ? info : null
  } catch {
    return null
  }
}
