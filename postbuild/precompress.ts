/**
 * Brotli and gzip copies of every compressible file of a build, made once at
 * build time so the server (and hosts that honour them) never compresses per
 * request: `x.js` gets `x.js.br` and `x.js.gz` beside it.
 * Each distinct content is compressed once per build (a case study's layout
 * segment is the same file in every page's folder, and `__next._full.txt` is its
 * page's `.txt`), and compressed copies are cached by content hash and settings
 * between builds, so a publish only compresses what changed (usually the HTML and
 * RSC payloads). Figures behind the settings: docs/speed.md#precompression.
 */
import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import pMap from 'p-map'
import { listFiles } from '../lib/build-output.ts'

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/** Extensions worth compressing (text formats; images like PNG/WebP already are). */
const COMPRESSIBLE = /\.(html|js|mjs|css|txt|xml|json|svg|map|webmanifest|ico)$/

/** Below this many bytes a compressed copy saves too little to be worth a file. */
const MIN_BYTES = 1024

/**
 * Brotli's best quality, for what visitors fetch first: pages' HTML (the home page
 * must stay within the first round trip, docs/speed.md; case studies' apart, see
 * CASE_STUDY_QUALITY), stylesheets, scripts.
 */
const BEST_QUALITY = 11

/**
 * For RSC payloads (`.txt`: a page's payload, fetched after the first paint, and
 * the segment files client navigation fetches) and for other files above
 * MAX_BEST_QUALITY_BYTES (Studio's chunks). On 200 case studies the payloads took
 * 1.8 s of CPU at quality 6 against 56.5 s at 11, for 9% more bytes (about 1 KB a
 * page); 9 took ten times 8's time for 0.1% fewer bytes.
 */
const FAST_QUALITY = 6

/** Scripts and other files above this size get FAST_QUALITY; other HTML never does. */
const MAX_BEST_QUALITY_BYTES = 256 * 1024

/**
 * For a case study's own files: its HTML (`case-studies/<slug>.html`), its payload
 * (`case-studies/<slug>.txt`) and its segment files (`case-studies/<slug>/`). There is one
 * per case study, so at 1,000 of them quality 11 was most of a full build's postbuild
 * (about 2 minutes of CPU). At 1,000, median of 101 pages, one core: HTML and payload
 * 24,755 B and 2.2 ms at 6 against 22,723 B and 89 ms at 11 (+8.9%, 2 KB a page; the
 * HTML 11,996 B against 10,981). On the seed's pages the HTML took 0.96 ms for 12,047 B
 * at 5 and 1.25 ms for 11,997 B at 6: 6 rather than 5, as fast to within the noise, a
 * little smaller, and the payloads keep the quality (and bytes) they had. The home
 * page and the list pages stay at 11 (the home page must fit the first round trip).
 */
export const CASE_STUDY_QUALITY = 6

/** A case study's own files, `/`-separated and relative to the site's root (see CASE_STUDY_QUALITY). */
const CASE_STUDY_FILE = /^case-studies\/(?!__next\.)[^/]+(\.html|\.txt|\/.+)$/

/** gzip's level: about 1.5% of the compression time, so its best. */
const GZIP_LEVEL = 9

/**
 * Contents compressed at once. zlib's async calls run in libuv's threadpool (4
 * threads unless UV_THREADPOOL_SIZE says otherwise), each content's brotli and gzip
 * side by side: one content a core keeps every core busy, and only that many
 * files' bytes are held at a time.
 */
const CONCURRENCY = os.availableParallelism()

export type PrecompressResult = {
  files: number
  rawBytes: number
  brotliBytes: number
  gzipBytes: number
  /** Files whose compressed copies all came from the cache. */
  cached: number
  /** Brotli and gzip copies made by this run (each distinct content's once). */
  compressions: number
  /** Files taken from the live build with their copies (counted in the totals too). */
  reused: number
}

/**
 * Brotli quality for a file, the one place that decides it: CASE_STUDY_QUALITY for a
 * case study's own files; BEST_QUALITY for any other HTML, and for anything but RSC
 * payloads (`.txt`) up to MAX_BEST_QUALITY_BYTES; FAST_QUALITY otherwise.
 * @param file the file's path relative to the site's root, `/`-separated
 *   (`case-studies/osteopath-lancing.html`)
 * @param size its size in bytes
 * @returns a brotli quality, 0-11
 */
export function brotliQualityOf(file: string, size: number): number {
  if (CASE_STUDY_FILE.test(file)) return CASE_STUDY_QUALITY
  if (file.endsWith('.html')) return BEST_QUALITY
  if (file.endsWith('.txt')) return FAST_QUALITY
  return size <= MAX_BEST_QUALITY_BYTES ? BEST_QUALITY : FAST_QUALITY
}

/** One compressed copy of a content: its settings, and its name in the cache. */
type Copy = { encoding: 'br'; quality: number } | { encoding: 'gz'; level: number }

/** A copy's cache entry: the content's sha256 and the settings that made it. */
function cacheName(hash: string, copy: Copy): string {
  return copy.encoding === 'br' ? `${hash}.q${copy.quality}.br` : `${hash}.level${copy.level}.gz`
}

function compress(bytes: Buffer, copy: Copy): Promise<Buffer> {
  return copy.encoding === 'br'
    ? brotli(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: copy.quality,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      })
    : gzipAsync(bytes, { level: copy.level })
}

/** How long after it was written a partial build keeps a cache entry it did not use (see `precompressSite`). */
const CACHE_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000

/** A distinct content of the site: the files that hold it, with their brotli quality. */
type Content = { hash: string; size: number; files: { file: string; quality: number }[] }

/**
 * Writes `.br` and `.gz` siblings for every compressible file of at least 1 KiB
 * under `root`, keeping only copies smaller than the original.
 * @param root absolute path of an exported site (e.g. `out/`)
 * @param cacheDir optional folder of compressed copies by content hash and settings;
 *   after a full run it holds exactly this build's copies; after one with `reused` files,
 *   also every entry written in the last 30 days
 * @param reused files (relative to root, `/`-separated) taken from the live build with
 *   their `.br` and `.gz` copies (scripts/build/reuse-pages.ts): they are counted from
 *   their sizes, and nothing is read or written for them
 * @returns counts and byte totals of what was compressed
 */
export async function precompressSite(
  root: string,
  cacheDir?: string,
  reused: ReadonlySet<string> = new Set(),
): Promise<PrecompressResult> {
  const result: PrecompressResult = {
    files: 0,
    rawBytes: 0,
    brotliBytes: 0,
    gzipBytes: 0,
    cached: 0,
    compressions: 0,
    reused: 0,
  }
  const files = await listFiles(root, { filter: (file) => COMPRESSIBLE.test(file) })

  // Hashed first (a few percent of the time), so that each content is compressed once.
  const byHash = new Map<string, Content>()
  const used = new Set<string>()
  await pMap(
    files,
    async (relative) => {
      const file = path.join(root, relative)
      if (reused.has(relative)) {
        // Its copies came with it: only counted, nothing read (a thousand pages' files).
        const sizeOf = (copy: string) =>
          stat(copy).then(
            (found) => found.size,
            () => 0,
          )
        // All awaited before any total is read: `total += await x` would lose updates.
        const [rawBytes, brotliBytes, gzipBytes] = await Promise.all([
          sizeOf(file),
          sizeOf(`${file}.br`),
          sizeOf(`${file}.gz`),
        ])
        if (rawBytes < MIN_BYTES) return
        result.files += 1
        result.reused += 1
        result.rawBytes += rawBytes
        result.brotliBytes += brotliBytes
        result.gzipBytes += gzipBytes
        return
      }
      const bytes = await readFile(file)
      if (bytes.length < MIN_BYTES) return
      const hash = createHash('sha256').update(bytes).digest('hex')
      const quality = brotliQualityOf(relative.split(path.sep).join('/'), bytes.length)
      const content = byHash.get(hash) ?? { hash, size: bytes.length, files: [] }
      content.files.push({ file, quality })
      byHash.set(hash, content)
    },
    { concurrency: CONCURRENCY * 2 },
  )
  // Largest first, so that no long compression is left for one core at the end.
  const contents = [...byHash.values()].sort((a, b) => b.size - a.size)

  if (cacheDir) await mkdir(cacheDir, { recursive: true })
  await pMap(
    contents,
    async ({ hash, size, files }) => {
      const bytes = await readFile(files[0]!.file)
      const copies: Copy[] = [
        { encoding: 'gz', level: GZIP_LEVEL },
        ...[...new Set(files.map((file) => file.quality))].map((quality) => ({
          encoding: 'br' as const,
          quality,
        })),
      ]
      let fromCache = 0
      const made = new Map<string, Buffer>()
      await Promise.all(
        copies.map(async (copy) => {
          const name = cacheName(hash, copy)
          used.add(name)
          const cached = cacheDir ? await readFile(path.join(cacheDir, name)).catch(() => null) : null
          if (cached) fromCache += 1
          else result.compressions += 1
          const compressed = cached ?? (await compress(bytes, copy))
          made.set(name, compressed)
          if (cacheDir && !cached) {
            // Renamed into place: a build stopped mid-write leaves no truncated entry.
            const temporary = path.join(cacheDir, `${name}.${process.pid}.tmp`)
            await writeFile(temporary, compressed)
            await rename(temporary, path.join(cacheDir, name))
          }
        }),
      )
      const gz = made.get(cacheName(hash, { encoding: 'gz', level: GZIP_LEVEL }))!
      for (const { file, quality } of files) {
        const br = made.get(cacheName(hash, { encoding: 'br', quality }))!
        result.files += 1
        result.rawBytes += size
        if (fromCache === copies.length) result.cached += 1
        if (br.length < size) {
          await writeFile(`${file}.br`, br)
          result.brotliBytes += br.length
        }
        if (gz.length < size) {
          await writeFile(`${file}.gz`, gz)
          result.gzipBytes += gz.length
        }
      }
    },
    { concurrency: CONCURRENCY },
  )
  if (cacheDir) {
    // A full build keeps exactly its own entries. A partial one cannot tell the reused files'
    // entries (it does not read them) from stale ones: it removes only the unused ones
    // written more than CACHE_MAX_AGE_MS ago (at worst, a later build compresses one again).
    const staleBefore = Date.now() - CACHE_MAX_AGE_MS
    for (const name of await readdir(cacheDir)) {
      if (used.has(name)) continue
      const entry = path.join(cacheDir, name)
      if (reused.size && ((await stat(entry).catch(() => null))?.mtimeMs ?? 0) >= staleBefore) continue
      await rm(entry, { force: true })
    }
  }
  return result
}
