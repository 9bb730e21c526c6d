/**
 * Brotli and gzip copies of every compressible file of a build, made once at
 * build time so the server (and hosts that honour them) never compresses per
 * request: `x.js` gets `x.js.br` and `x.js.gz` beside it.
 * Compressed copies are cached by content hash between builds, so a publish
 * only compresses what changed (usually the HTML and RSC payloads).
 */
import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/** Extensions worth compressing (text formats; images like PNG/WebP already are). */
const COMPRESSIBLE = /\.(html|js|mjs|css|txt|xml|json|svg|map|webmanifest|ico)$/

/** Below this many bytes a compressed copy saves too little to be worth a file. */
const MIN_BYTES = 1024

/**
 * Brotli's best quality (11) compresses at well under 1 MB/s on this project's
 * machines; files above this size (Studio's chunks, not visitors' pages) get
 * quality 9, about fifteen times faster and some 10% larger.
 */
const MAX_BEST_QUALITY_BYTES = 256 * 1024

export type PrecompressResult = {
  files: number
  rawBytes: number
  brotliBytes: number
  gzipBytes: number
  /** Files whose compressed copies came from the cache. */
  cached: number
}

async function compress(bytes: Buffer): Promise<{ br: Buffer; gz: Buffer }> {
  const [br, gz] = await Promise.all([
    brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]:
          bytes.length <= MAX_BEST_QUALITY_BYTES ? constants.BROTLI_MAX_QUALITY : 9,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzipAsync(bytes, { level: 9 }),
  ])
  return { br, gz }
}

/**
 * Writes `.br` and `.gz` siblings for every compressible file of at least 1 KiB
 * under `root`, keeping only copies smaller than the original.
 * @param root absolute path of an exported site (e.g. `out/`)
 * @param cacheDir optional folder of compressed copies by content hash; after the
 *   run it holds exactly this build's copies (older entries are removed)
 * @returns counts and byte totals of what was compressed
 */
export async function precompressSite(root: string, cacheDir?: string): Promise<PrecompressResult> {
  const result: PrecompressResult = { files: 0, rawBytes: 0, brotliBytes: 0, gzipBytes: 0, cached: 0 }
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  const files = entries
    .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
  if (cacheDir) await mkdir(cacheDir, { recursive: true })
  const used = new Set<string>()
  await Promise.all(
    files.map(async (file) => {
      const bytes = await readFile(file)
      if (bytes.length < MIN_BYTES) return
      const key = createHash('sha256').update(bytes).digest('hex')
      let copies: { br: Buffer; gz: Buffer } | null = null
      if (cacheDir) {
        used.add(`${key}.br`).add(`${key}.gz`)
        try {
          const [br, gz] = await Promise.all(
            ['br', 'gz'].map((ext) => readFile(path.join(cacheDir, `${key}.${ext}`))),
          )
          copies = { br: br!, gz: gz! }
          result.cached += 1
        } catch {
          copies = null
        }
      }
      if (!copies) {
        copies = await compress(bytes)
        if (cacheDir)
          await Promise.all([
            writeFile(path.join(cacheDir, `${key}.br`), copies.br),
            writeFile(path.join(cacheDir, `${key}.gz`), copies.gz),
          ])
      }
      result.files += 1
      result.rawBytes += bytes.length
      if (copies.br.length < bytes.length) {
        await writeFile(`${file}.br`, copies.br)
        result.brotliBytes += copies.br.length
      }
      if (copies.gz.length < bytes.length) {
        await writeFile(`${file}.gz`, copies.gz)
        result.gzipBytes += copies.gz.length
      }
    }),
  )
  if (cacheDir)
    for (const name of await readdir(cacheDir))
      if (!used.has(name)) await rm(path.join(cacheDir, name), { force: true })
  return result
}
