/** What each exported page makes a browser download, raw and brotli (for `--bytes-against`); and the baseline of every speed figure, the empty Next.js page of tests/fixtures/empty-page, built and finalized like the site. */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { brotliCompressSync } from 'node:zlib'
import { deferredPayloadOf, deferredScriptsOf } from '../../site-build/defer-framework-scripts.ts'
import { finalizeExport } from '../../site-build/finalize.ts'
import { listFiles, urlPathOf } from '../../lib/build-output.ts'
import { CONTACT_INBOX_PATH } from '../../lib/publisher-routes.ts'

export type RouteBytes = { route: string; raw: number; br: number }

/** Brotli bytes of a file as served: its precompressed copy when the build made one. */
function brotliOf(file: string): number {
  if (!/\.(html|js|css|svg|txt|json|xml)$/.test(file)) return statSync(file).size
  const copy = existsSync(`${file}.br`)
    ? statSync(`${file}.br`).size
    : brotliCompressSync(readFileSync(file)).length
  return Math.min(statSync(file).size, copy)
}

/**
 * Bytes per HTML page of an export folder (not the booking stand-in), sorted by route: the document, its RSC
 * payload (the `.txt` the paint-first loader fetches, when not inline), scripts (Next's chunks started by
 * that loader too), stylesheets and images.
 */
export async function routeBytes(out: string): Promise<RouteBytes[]> {
  const pages = await listFiles(out, {
    filter: (file) =>
      file.endsWith('.html') && !file.startsWith('booking/') && !file.startsWith('_not-found'),
  })
  return pages.map((page) => {
    const html = readFileSync(path.join(out, page), 'utf8')
    const linked = /<(?:script|img)[^>]+src="([^"]+)"|<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g
    const urls = [...html.matchAll(linked)].map((match) => match[1] ?? match[2]!)
    urls.push(...deferredScriptsOf(html))
    const payload = deferredPayloadOf(html)
    if (payload) urls.push(payload)
    const files = [...new Set([page, ...urls])]
      .map((url) => path.join(out, decodeURI(url)))
      .filter((file) => existsSync(file))
    return {
      route: urlPathOf(page),
      raw: files.reduce((sum, file) => sum + statSync(file).size, 0),
      br: files.reduce((sum, file) => sum + brotliOf(file), 0),
    }
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
