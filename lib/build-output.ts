/**
 * What a finished build is, for both programs that handle one (docs/architecture.md):
 * the postbuild (`postbuild/`), which writes it, and the publisher (`server/`), which
 * serves it. The one place for
 * - the completion marker (`.build.json`) and what it records;
 * - the headers every answer carries and the two cache rules;
 * - which file answers a URL path: the clean-URL rules of static hosts (Netlify,
 *   Cloudflare Pages, serve), so the export behaves the same here and there;
 * - the old addresses that answer with a permanent redirect (`.redirects.json`);
 * - how a build folder's files are listed (`listFiles`), for every program that walks one.
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

/**
 * Headers of every answer with a content image (`/media/*`; in an editor's preview,
 * `/preview-media/*` too), whoever serves it: opened on its own, an uploaded drawing is a
 * document of the site's origin, so its policy runs nothing (no script, and `sandbox`: an
 * opaque origin, no cookie or storage of the site, no form, no navigation of the page),
 * loads nothing but the pictures it embeds as `data:` URLs, and keeps its inline styles
 * (`style` attributes, its own `<style>`); `nosniff` keeps every file the type its
 * extension says. Inside a page's `<img>` a browser runs nothing of a drawing anyway.
 */
export const MEDIA_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox",
  'X-Content-Type-Options': 'nosniff',
}

/**
 * Name of the build's list of old addresses (`.redirects.json`): a dot file, never served.
 * The postbuild writes it (postbuild/redirects-file.ts computes it); the publisher answers
 * its addresses with a redirect, and the next build reads it to keep them.
 */
export const REDIRECTS_FILE = '.redirects.json'

/**
 * The status of every redirect the publisher sends: 301, permanent. The pages answer GET
 * and HEAD only (other methods get 405), so 308's keeping of the method adds nothing, and
 * 301 is what every crawler, browser and `_redirects` host (Netlify's default) knows.
 */
export const REDIRECT_STATUS = 301

/**
 * One old address and the page it moved to: URL paths, percent-encoded as a browser sends
 * them (`/case-studies/Osteopath%20Lancing` -> `/case-studies/osteopath-lancing`), and the
 * `_id` of the document whose page `to` is.
 */
export type Redirect = { from: string; to: string; _id: string }

/** What `.redirects.json` holds. */
export type RedirectsManifest = {
  /** Each case study's page in the build: `_id` -> its URL path (the next build's history). */
  pages: Record<string, string>
  /** Every old address of the build, sorted by `from`: none of them is a page's address. */
  redirects: Redirect[]
}

/**
 * The files of one build, as URL-style paths relative to its root (e.g. `case-studies/x.html`),
 * and its old addresses: decoded URL path (`/case-studies/Osteopath Lancing`) -> the
 * percent-encoded path it redirects to. No redirects: an older build, or a set made by hand.
 */
export type SiteIndex = ReadonlySet<string> & { readonly redirects?: ReadonlyMap<string, string> }

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
 * A site index from a list of files and redirects.
 * @param files relative paths with `/` separators (no leading slash)
 * @param redirects old addresses (a malformed `from` is left out: no request could match it)
 */
export function siteIndexOf(files: Iterable<string>, redirects: readonly Redirect[] = []): SiteIndex {
  const moved = new Map<string, string>()
  for (const redirect of redirects) {
    const from = decodedPath(redirect.from)
    if (from !== null && !moved.has(from)) moved.set(from, redirect.to)
  }
  return Object.assign(new Set(files), { redirects: moved })
}

/**
 * A URL path decoded (`%20` -> space).
 * @returns null when its percent-encoding is malformed (no request can name it)
 */
export function decodedPath(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname)
  } catch {
    return null
  }
}

/**
 * One of a build's JSON dot files (`.redirects.json`, `.page-documents.json`), parsed.
 * @param root absolute path of a build
 * @param name the file's name inside it
 * @returns the parsed value; undefined when the file is missing or not JSON
 */
export async function readBuildJson(root: string, name: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path.join(root, name), 'utf8')) as unknown
  } catch {
    return undefined
  }
}

/**
 * Whether a parsed JSON value is an object (not an array) whose every value passes `isValue`.
 * @param value what JSON.parse gave
 * @param isValue the check of each value
 */
export function isRecordOf<T>(
  value: unknown,
  isValue: (entry: unknown) => boolean,
): value is Record<string, T> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every(isValue)
  )
}

/**
 * Reads a build's old addresses.
 * @param root absolute path of a build
 * @returns null when the build has none (built before the file existed) or it is not a
 *   manifest (every entry a string)
 */
export async function readRedirects(root: string): Promise<RedirectsManifest | null> {
  const parsed = await readBuildJson(root, REDIRECTS_FILE)
  const { pages, redirects } = (parsed ?? {}) as Partial<Record<keyof RedirectsManifest, unknown>>
  const isPages = isRecordOf<string>(pages, (page) => typeof page === 'string')
  const isRedirects =
    Array.isArray(redirects) &&
    redirects.every(
      (entry: Partial<Record<keyof Redirect, unknown>> | null) =>
        typeof entry?.from === 'string' && typeof entry.to === 'string' && typeof entry._id === 'string',
    )
  return isPages && isRedirects ? { pages, redirects } : null
}

/** What `listFiles` lists besides the walk itself. */
export type ListFilesOptions = {
  /** Keeps a path when it returns true; given the path as listed (relative, `/` separators). */
  filter?: (file: string) => boolean
  /**
   * Lists every entry, folders and symbolic links too, not only regular files (for renaming
   * names: decode-file-names.ts). Default false.
   */
  everyEntry?: boolean
}

/**
 * Lists the files of a folder at any depth: the one walk of a build folder, for the
 * postbuild, the publisher, the build and the audits and benchmarks alike.
 * Regular files only (unless `everyEntry`); a symbolic link is never followed, and is
 * listed only with `everyEntry`. Dot files and dot folders are listed like any other.
 * @param root path of the folder (absolute, or relative to the working directory)
 * @param options filter: which paths to keep; everyEntry: folders and links too
 * @returns paths relative to root with `/` separators (no leading slash), sorted by
 *   UTF-16 code units (`Array.prototype.sort`)
 * @throws Error (ENOENT, ENOTDIR) when root is missing or no folder: a build to walk must be there
 */
export async function listFiles(root: string, options: ListFilesOptions = {}): Promise<string[]> {
  const { filter, everyEntry = false } = options
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  const files = entries
    .filter((entry) => everyEntry || entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
  return (filter ? files.filter(filter) : files).sort()
}

/**
 * Lists the servable files of a build directory, and reads its old addresses.
 * @param root absolute path of the build
 * @returns relative paths with `/` separators (no leading slash), and the redirects of the
 *   build's `.redirects.json` (none without one)
 */
export async function indexSite(root: string): Promise<SiteIndex> {
  const [files, manifest] = await Promise.all([listFiles(root, { filter: isServable }), readRedirects(root)])
  return siteIndexOf(files, manifest?.redirects)
}

/**
 * Maps a request path to a file of the build, like a static host with clean URLs:
 * `/` -> `index.html`, `/sites` -> `sites.html`, `/booking` -> redirect to `/booking/`,
 * `/booking/` -> `booking/index.html`, `/media/x.svg` -> itself, `/studio/anything` -> `studio.html`.
 * An old address of the build's redirects (`/case-studies/Osteopath%20Lancing`, in any
 * percent-encoding) redirects to its page, before any file: the build also holds a small
 * page at that address for hosts that can redirect nothing, and this answer is better.
 * @param pathname the URL path, still percent-encoded (e.g. `/case-studies/Osteopath%20Lancing`)
 * @returns the file, a redirect, or not-found (also for malformed encodings and `..` segments)
 */
export function resolvePath(site: SiteIndex, pathname: string): Resolution {
  const decoded = decodedPath(pathname)
  if (decoded === null) return { kind: 'not-found' }
  if (!decoded.startsWith('/') || decoded.includes('\0')) return { kind: 'not-found' }
  const parts = decoded.slice(1).split('/')
  if (parts.some((part) => part === '..' || part === '.')) return { kind: 'not-found' }
  const moved = site.redirects?.get(decoded)
  if (moved !== undefined) return { kind: 'redirect', location: moved }
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

/**
 * The line the build (scripts/build.ts) prints once its content check passed: past the
 * failures that come within seconds (invalid content, an unreachable Content Lake). The
 * publisher starts the gate's HTML checker (a JVM) on it, not for a build that fails there.
 */
export const CONTENT_CHECKED_LINE = 'build: content checked'

/**
 * Name of the file in which the build (scripts/build.ts) records each of its steps' time,
 * in ms: `{"content check": 412, "media": 3, "compile": 0, "render": 9800, "postbuild": 2100}`.
 * A dot file, never served.
 */
export const BUILD_PHASES_FILE = '.build-phases.json'

/**
 * Reads a build's step times.
 * @param root absolute path of a build
 * @returns each step's ms by name; empty when the build recorded none (a build made by
 *   another command, or an older one)
 */
export async function readBuildPhases(root: string): Promise<Record<string, number>> {
  try {
    const phases = JSON.parse(await readFile(path.join(root, BUILD_PHASES_FILE), 'utf8')) as unknown
    if (!phases || typeof phases !== 'object') return {}
    return Object.fromEntries(
      Object.entries(phases).filter((entry): entry is [string, number] => typeof entry[1] === 'number'),
    )
  } catch {
    return {}
  }
}
