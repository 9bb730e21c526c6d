/**
 * What a finished build is, for both programs that handle one (docs/architecture.md):
 * the postbuild (`postbuild/`), which writes it, and the publisher (`server/`), which
 * serves it. The one place for
 * - the completion marker (`.build.json`) and what it records;
 * - the headers every answer carries and the two cache rules;
 * - which file answers a URL path: the clean-URL rules of static hosts (Netlify,
 *   Cloudflare Pages, serve), so the export behaves the same here and there.
 */
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { STUDIO_BASE_PATH } from './studio.ts'

/** Name of the completion marker inside a build: the publisher never puts a build live without it. */
export const BUILD_MARKER = '.build.json'

/** What `.build.json` records about a build: its id and time. */
export type BuildInfo = { id: string; builtAt: string }

/**
 * Reads a build's marker.
 * @param root absolute path of a build
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

/** Cache rule for HTML and other unhashed files: always revalidate (ETag answers 304). */
export const REVALIDATE = 'public, max-age=0, must-revalidate'
/** Cache rule for content-hashed files: a year, never revalidated. */
export const IMMUTABLE = 'public, max-age=31536000, immutable'

/** Headers every answer carries. */
export const BASE_HEADERS: Record<string, string> = {
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  // No `interest-cohort`: FLoC is gone and Chrome reports the feature as unrecognised.
  'Permissions-Policy':
    'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
}

/** The files of one build, as URL-style paths relative to its root (e.g. `case-studies/x.html`). */
export type SiteIndex = ReadonlySet<string>

/** How a request path is answered. */
export type Resolution =
  { kind: 'file'; file: string } | { kind: 'redirect'; location: string } | { kind: 'not-found' }

/**
 * Paths answered by one page when no file matches: client-side routed apps. Sanity
 * Studio at /studio routes in the browser, so /studio/structure/review is the Studio page.
 */
export const FALLBACKS: readonly { prefix: string; file: string }[] = [
  { prefix: `${STUDIO_BASE_PATH}/`, file: `${STUDIO_BASE_PATH.slice(1)}.html` },
]

/** Files that configure a host and are never served (Netlify/Cloudflare Pages conventions). */
const HOST_FILES = new Set(['_headers', '_redirects'])

/** Whether a file of the build may be answered to a visitor. */
function isServable(file: string): boolean {
  if (HOST_FILES.has(file)) return false
  if (file.endsWith('.br') || file.endsWith('.gz')) return false // precompressed siblings, chosen by Accept-Encoding
  return !file.split('/').some((part) => part.startsWith('.'))
}

/**
 * Lists the servable files of a build directory.
 * @param root absolute path of the build
 * @returns relative paths with `/` separators (no leading slash)
 */
export async function indexSite(root: string): Promise<SiteIndex> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  const files = new Set<string>()
  for (const entry of entries) {
    if (!entry.isFile()) continue
    const file = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')
    if (isServable(file)) files.add(file)
  }
  return files
}

/**
 * Maps a request path to a file of the build, like a static host with clean URLs:
 * `/` -> `index.html`, `/sites` -> `sites.html`, `/booking` -> redirect to `/booking/`,
 * `/booking/` -> `booking/index.html`, `/media/x.svg` -> itself, `/studio/anything` -> `studio.html`.
 * @param pathname the URL path, still percent-encoded (e.g. `/case-studies/Osteopath%20Lancing`)
 * @returns the file, a redirect, or not-found (also for malformed encodings and `..` segments)
 */
export function resolvePath(site: SiteIndex, pathname: string): Resolution {
  let decoded: string
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    return { kind: 'not-found' }
  }
  if (!decoded.startsWith('/') || decoded.includes('\0')) return { kind: 'not-found' }
  const parts = decoded.slice(1).split('/')
  if (parts.some((part) => part === '..' || part === '.')) return { kind: 'not-found' }
  const relative = parts.join('/')
  if (relative === '' || relative.endsWith('/')) {
    const index = `${relative}index.html`
    return site.has(index) ? { kind: 'file', file: index } : { kind: 'not-found' }
  }
  if (site.has(relative)) return { kind: 'file', file: relative }
  if (site.has(`${relative}.html`)) return { kind: 'file', file: `${relative}.html` }
  if (site.has(`${relative}/index.html`)) return { kind: 'redirect', location: `${pathname}/` }
  const fallback = FALLBACKS.find(
    (candidate) => decoded.startsWith(candidate.prefix) && site.has(candidate.file),
  )
  return fallback ? { kind: 'file', file: fallback.file } : { kind: 'not-found' }
}

/**
 * The clean URL path of an HTML file, as `_headers` rules name pages
 * (`index.html` -> `/`, `sites.html` -> `/sites`, `booking/index.html` -> `/booking/`);
 * other files keep their path. Percent-encoded, as in a URL.
 */
export function urlPathOf(file: string): string {
  let clean = file
  if (clean === 'index.html') clean = ''
  else if (clean.endsWith('/index.html')) clean = clean.slice(0, -'index.html'.length)
  else if (clean.endsWith('.html')) clean = clean.slice(0, -'.html'.length)
  return encodeURI(`/${clean}`)
}
