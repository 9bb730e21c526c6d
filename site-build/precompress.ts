/** Brotli and gzip copies beside every compressible file of a build, cached by content between builds (docs/speed.md#precompression). */
import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import pMap from 'p-map'
import writeFileAtomic from 'write-file-atomic'
import { listFiles } from '../lib/build-output.ts'

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/** Text formats (images like PNG/WebP are compressed already), and the size below which a copy saves too little. */
const COMPRESSIBLE = /\.(html|js|mjs|css|txt|xml|json|svg|map|webmanifest|ico)$/
const MIN_BYTES = 1024

/** 11 for what visitors fetch first (HTML, CSS, scripts); 6 for RSC payloads and files above 256 KiB: a tenth of the time for 9% more bytes. */
const [BEST_QUALITY, FAST_QUALITY, MAX_BEST_QUALITY_BYTES] = [11, 6, 256 * 1024]

/** For a case study's own files (one set per case study): 11 was most of a large build's postbuild. */
export const CASE_STUDY_QUALITY = 6

const CASE_STUDY_FILE = /^case-studies\/(?!__next\.)[^/]+(\.html|\.txt|\/.+)$/

/** gzip's level: about 1.5% of the compression time, so its best. */
const GZIP_LEVEL = 9

// One content a core: zlib works in libuv's threadpool, and only that many files' bytes are held at once.
const CONCURRENCY = os.availableParallelism()

/** Brotli quality (0-11) for a root-relative `/`-separated file of `size` bytes: the one rule (docs/speed.md). */
export function brotliQualityOf(file: string, size: number): number {
  if (CASE_STUDY_FILE.test(file)) return CASE_STUDY_QUALITY
  if (file.endsWith('.html')) return BEST_QUALITY
  if (file.endsWith('.txt')) return FAST_QUALITY
  return size <= MAX_BEST_QUALITY_BYTES ? BEST_QUALITY : FAST_QUALITY
}

type Copy = { encoding: 'br'; quality: number } | { encoding: 'gz'; level: number }

/** A copy's cache entry: the content's sha256 and the settings that made it. */
const cacheName = (hash: string, copy: Copy) =>
  copy.encoding === 'br' ? `${hash}.q${copy.quality}.br` : `${hash}.level${copy.level}.gz`

const compress = (bytes: Buffer, copy: Copy): Promise<Buffer> =>
  copy.encoding === 'br'
    ? brotli(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: copy.quality,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      })
    : gzipAsync(bytes, { level: copy.level })

/** How long a partial build keeps a cache entry it did not use. */
const CACHE_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000

const sizeOf = (file: string) =>
  stat(file).then(
    ({ size }) => size,
    () => 0,
  )

/**
 * Writes `.br` and `.gz` siblings smaller than the original for every compressible file of at least
 * 1 KiB; `cacheDir` keeps copies by content hash and settings; `reused` files are only counted.
 */
export async function precompressSite(
  root: string,
  cacheDir?: string,
  reused: ReadonlySet<string> = new Set(),
) {
  // `compressions`: copies made by this run; `reused`: files taken with their copies, in the totals too.
  const result = {
    files: 0,
    rawBytes: 0,
    brotliBytes: 0,
    gzipBytes: 0,
    cached: 0,
    compressions: 0,
    reused: 0,
  }
  const files = await listFiles(root, { filter: (file) => COMPRESSIBLE.test(file) })

  // Hashed first, so that each content is compressed once.
  const byHash = new Map<string, { size: number; files: { file: string; quality: number }[] }>()
  await pMap(
    files,
    async (relative) => {
      const file = path.join(root, relative)
      if (reused.has(relative)) {
        // All awaited before any total is read: `total += await x` would lose updates.
        const [raw, br, gz] = await Promise.all([file, `${file}.br`, `${file}.gz`].map(sizeOf))
        if (raw! < MIN_BYTES) return
        result.files += 1
        result.reused += 1
        result.rawBytes += raw!
        result.brotliBytes += br!
        result.gzipBytes += gz!
        return
      }
      const bytes = await readFile(file)
      if (bytes.length < MIN_BYTES) return
      const hash = createHash('sha256').update(bytes).digest('hex')
      const content = byHash.get(hash) ?? { size: bytes.length, files: [] }
      content.files.push({ file, quality: brotliQualityOf(relative, bytes.length) })
      byHash.set(hash, content)
    },
    { concurrency: CONCURRENCY * 2 },
  )

  if (cacheDir) await mkdir(cacheDir, { recursive: true })
  const used = new Set<string>()
  await pMap(
    // Largest first, so that no long compression is left for one core at the end.
    [...byHash].sort(([, a], [, b]) => b.size - a.size),
    async ([hash, { size, files }]) => {
      const bytes = await readFile(files[0]!.file)
      const gzip: Copy = { encoding: 'gz', level: GZIP_LEVEL }
      const qualities = [...new Set(files.map((file) => file.quality))]
      const copies: Copy[] = [gzip, ...qualities.map((quality) => ({ encoding: 'br' as const, quality }))]
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
          // Renamed into place: a build stopped mid-write leaves no truncated entry.
          if (cacheDir && !cached)
            await writeFileAtomic(path.join(cacheDir, name), compressed, { fsync: false })
        }),
      )
      const gz = made.get(cacheName(hash, gzip))!
      for (const { file, quality } of files) {
        const br = made.get(cacheName(hash, { encoding: 'br', quality }))!
        result.files += 1
        result.rawBytes += size
        if (fromCache === copies.length) result.cached += 1
        for (const [copy, suffix, total] of [
          [br, 'br', 'brotliBytes'],
          [gz, 'gz', 'gzipBytes'],
        ] as const)
          if (copy.length < size) {
            await writeFile(`${file}.${suffix}`, copy)
            result[total] += copy.length
          }
      }
    },
    { concurrency: CONCURRENCY },
  )
  if (cacheDir) {
    // A partial build cannot tell the reused files' entries from stale ones: it removes only old unused ones.
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
