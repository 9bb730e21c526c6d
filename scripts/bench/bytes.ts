/** What each exported page makes a browser download (JavaScript, CSS, HTML with its payload, images), raw and as served compressed; and the baseline of every speed figure, the empty Next.js page of tests/fixtures/empty-page, built and finalized like the site. */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { deferredPayloadOf, deferredScriptsOf } from '../../site-build/defer-framework-scripts.ts'
import { finalizeExport } from '../../site-build/finalize.ts'
import { listFiles, urlPathOf } from '../../lib/build-output.ts'
import { CONTACT_INBOX_PATH } from '../../lib/publisher-routes.ts'

export type Sizes = { raw: number; br: number; gzip: number }
export type RouteBytes = {
  route: string
  js: Sizes
  css: Sizes
  /** the document and its RSC payload (inline, or the `.txt` the paint-first loader fetches) */
  html: Sizes
  images: Sizes
  largestImage: number
}

const zero = (): Sizes => ({ raw: 0, br: 0, gzip: 0 })

/** Sizes of one file as served: its precompressed copies when the build made them. */
function sizesOf(file: string): Sizes {
  const raw = statSync(file).size
  const copy = (ext: string, compress: (bytes: Buffer) => Buffer) =>
    existsSync(`${file}.${ext}`) ? statSync(`${file}.${ext}`).size : compress(readFileSync(file)).length
  const isText = /\.(html|js|css|svg|txt|json|xml)$/.test(file)
  return {
    raw,
    br: isText ? Math.min(raw, copy('br', brotliCompressSync)) : raw,
    gzip: isText
      ? Math.min(
          raw,
          copy('gz', (bytes) => gzipSync(bytes, { level: 9 })),
        )
      : raw,
  }
}

function add(total: Sizes, more: Sizes) {
  total.raw += more.raw
  total.br += more.br
  total.gzip += more.gzip
}

/** Bytes per HTML page of an export folder (not the booking stand-in), one row per page sorted by route. */
export async function routeBytes(out: string): Promise<RouteBytes[]> {
  const pages = await listFiles(out, {
    filter: (file) =>
      file.endsWith('.html') && !file.startsWith('booking/') && !file.startsWith('_not-found'),
  })
  return pages.map((page) => {
    const html = readFileSync(path.join(out, page), 'utf8')
    const referenced = (pattern: RegExp) =>
      [...new Set([...html.matchAll(pattern)].map((match) => match[1]!))].filter((url) =>
        existsSync(path.join(out, decodeURI(url))),
      )
    const row: RouteBytes = {
      route: urlPathOf(page),
      js: zero(),
      css: zero(),
      html: sizesOf(path.join(out, page)),
      images: zero(),
      largestImage: 0,
    }
    // HTML is the document and its RSC payload, inline or the file the paint-first loader fetches.
    const payload = deferredPayloadOf(html)
    if (payload) add(row.html, sizesOf(path.join(out, decodeURI(payload))))
    // Next's chunks are started by the paint-first loader (site-build/defer-framework-scripts.ts), not by <script src>.
    const scripts = [...referenced(/<script[^>]+src="([^"]+)"/g), ...deferredScriptsOf(html)]
    for (const url of new Set(scripts)) add(row.js, sizesOf(path.join(out, url)))
    for (const url of referenced(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g))
      add(row.css, sizesOf(path.join(out, url)))
    for (const url of referenced(/<img[^>]+src="([^"]+)"/g)) {
      const sizes = sizesOf(path.join(out, decodeURI(url)))
      add(row.images, sizes)
      row.largestImage = Math.max(row.largestImage, sizes.br)
    }
    return row
  })
}

const EMPTY_PAGE_DIR = path.resolve('tests/fixtures/empty-page')
export const EMPTY_PAGE_OUT = path.join(EMPTY_PAGE_DIR, 'out')

/** Builds the empty page into EMPTY_PAGE_OUT; the build's ms. */
export async function buildEmptyPage(): Promise<number> {
  const started = performance.now()
  const result = spawnSync('npx', ['next', 'build', EMPTY_PAGE_DIR], { encoding: 'utf8' })
  if (result.status !== 0)
    throw new Error(`the empty page did not build:\n${result.stdout}\n${result.stderr}`)
  await finalizeExport(EMPTY_PAGE_OUT, {
    bookingWidgetUrl: '/booking/',
    contactWebhookUrl: CONTACT_INBOX_PATH,
  })
  return performance.now() - started
}
