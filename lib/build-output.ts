/** What a finished build is, for the postbuild that writes it and the publisher that serves it (docs/architecture.md). */
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { STUDIO_BASE_PATH } from './studio.ts'

/** Name of the completion marker inside a build: the publisher never puts a build live without it. */
export const BUILD_MARKER = '.build.json'

export type BuildInfo = { id: string; builtAt: string }

/** Reads a build's marker (`root` absolute); null when the build is incomplete. */
export async function readBuildInfo(root: string): Promise<BuildInfo | null> {
  const info = (await readBuildJson(root, BUILD_MARKER)) as Partial<BuildInfo> | null | undefined
  return typeof info?.id === 'string' && typeof info.builtAt === 'string' ? (info as BuildInfo) : null
}

/** The build's list of old addresses (a dot file, never served); the next build reads it to keep them. */
export const REDIRECTS_FILE = '.redirects.json'

/** The status of every redirect the publisher sends (docs/publishing.md, "Why 301"). */
export const REDIRECT_STATUS = 301

/** One old address and its page: percent-encoded URL paths, and the `_id` of the document whose page `to` is. */
export type Redirect = { from: string; to: string; _id: string }

export type RedirectsManifest = {
  pages: Record<string, string>
  redirects: Redirect[]
}

/** A build's servable files (relative URL-style paths), and its old addresses: decoded path -> location. */
export type SiteIndex = ReadonlySet<string> & { readonly redirects?: ReadonlyMap<string, string> }

export type Resolution =
  { kind: 'file'; file: string } | { kind: 'redirect'; location: string } | { kind: 'not-found' }

/** Paths answered by one page when no file matches: the Studio routes in the browser. */
export const FALLBACKS: readonly { prefix: string; file: string }[] = [
  { prefix: `${STUDIO_BASE_PATH}/`, file: `${STUDIO_BASE_PATH.slice(1)}.html` },
]

const HOST_FILES = new Set(['_headers', '_redirects'])

function isServable(file: string): boolean {
  if (HOST_FILES.has(file)) return false
  if (file.endsWith('.br') || file.endsWith('.gz')) return false // precompressed siblings, chosen by Accept-Encoding
  return !file.split('/').some((part) => part.startsWith('.'))
}

/** A site index from relative `/`-separated paths and redirects (a malformed `from` is left out). */
export function siteIndexOf(files: Iterable<string>, redirects: readonly Redirect[] = []): SiteIndex {
  const moved = new Map<string, string>()
  for (const redirect of redirects) {
    const from = decodedPath(redirect.from)
    if (from !== null && !moved.has(from)) moved.set(from, redirect.to)
  }
  return Object.assign(new Set(files), { redirects: moved })
}

/** A URL path decoded; null when its percent-encoding is malformed. */
export function decodedPath(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname)
  } catch {
    return null
  }
}

/** One of a build's JSON dot files, parsed; undefined when it is missing or not JSON. */
export async function readBuildJson(root: string, name: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path.join(root, name), 'utf8')) as unknown
  } catch {
    return undefined
  }
}

/** Whether a parsed JSON value is an object whose every value passes `isValue`. */
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

/** Reads a build's old addresses; null when it has none (an older build) or the file is no manifest. */
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

/** Lists a folder's files at any depth, sorted, relative and `/`-separated (links never followed). @throws Error when root is no folder */
export async function listFiles(
  root: string,
  { filter, everyEntry = false }: { filter?: (file: string) => boolean; everyEntry?: boolean } = {},
): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  const files = entries
    .filter((entry) => everyEntry || entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
  return (filter ? files.filter(filter) : files).sort()
}

/** Lists a build's servable files and reads its old addresses. */
export async function indexSite(root: string): Promise<SiteIndex> {
  const [files, manifest] = await Promise.all([listFiles(root, { filter: isServable }), readRedirects(root)])
  return siteIndexOf(files, manifest?.redirects)
}

/** Maps a percent-encoded request path to a build's file like a static host with clean URLs; an old address redirects first. */
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

/** The clean, percent-encoded URL path of an HTML file as `_headers` rules name pages (`booking/index.html` -> `/booking/`). */
export function urlPathOf(file: string): string {
  let clean = file
  if (clean === 'index.html') clean = ''
  else if (clean.endsWith('/index.html')) clean = clean.slice(0, -'index.html'.length)
  else if (clean.endsWith('.html')) clean = clean.slice(0, -'.html'.length)
  return encodeURI(`/${clean}`)
}

/** What the build prints once its content check passed: the publisher then starts the gate's HTML checker. */
export const CONTENT_CHECKED_LINE = 'build: content checked'

/** The file in which the build records each step's time in ms, by step name (a dot file). */
export const BUILD_PHASES_FILE = '.build-phases.json'

/** Reads a build's step times in ms by name; empty when it recorded none. */
export async function readBuildPhases(root: string): Promise<Record<string, number>> {
  const phases = await readBuildJson(root, BUILD_PHASES_FILE)
  if (!phases || typeof phases !== 'object') return {}
  return Object.fromEntries(Object.entries(phases).filter(([, ms]) => typeof ms === 'number'))
}
