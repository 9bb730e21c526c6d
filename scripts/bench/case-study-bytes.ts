/**
 * What a case study page costs on the wire at the brotli quality the postbuild gives it
 * (`CASE_STUDY_QUALITY`, postbuild/precompress.ts) beside quality 11: for a sample of the
 * build's case study pages, the brotli bytes of the HTML and of the payload (`.txt`, which
 * the page fetches after its first paint) and the ms one core takes to compress them, at
 * each quality. The chosen quality's bytes are the `.br` files the build wrote; quality 11's
 * are compressed here (about 0.3 s a page, hence a sample).
 */
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { brotliCompressSync, constants } from 'node:zlib'
import { listFiles } from '../../lib/build-output.ts'
import { brotliQualityOf } from '../../postbuild/precompress.ts'
import { median } from './median.ts'

/** Per page, medians over the sample: bytes (HTML, payload, both) and ms to compress both. */
export type PageCost = { html: number; payload: number; page: number; ms: number }

export type CaseStudyBytes = {
  /** Case study pages in the build, and how many of them were measured. */
  pages: number
  sampled: number
  /** The quality the postbuild gave them, and its figures; quality 11's beside it. */
  quality: number
  atQuality: PageCost
  at11: PageCost
}

/**
 * Every `step`-th item so that at most `count` are taken, first and last included.
 * @returns `items` itself when it has at most `count`
 */
export function evenSample<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items]
  const step = (items.length - 1) / (count - 1)
  return Array.from({ length: count }, (_, i) => items[Math.round(i * step)]!)
}

/** Brotli at a quality, timed on this thread (ms). */
function timedBrotli(bytes: Buffer, quality: number): { bytes: number; ms: number } {
  const started = performance.now()
  const compressed = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  })
  return { bytes: compressed.length, ms: performance.now() - started }
}

/**
 * Measures the case study pages of a finished build.
 * @param root the build's folder (out/), precompressed
 * @param sample how many pages to measure, evenly spread over them by name
 * @throws Error when the build has no case study page, a page has no payload or `.br`
 *   copy (the postbuild did not run on it), or the postbuild's rule gives a case study's
 *   HTML and payload different qualities (the figures would mix two)
 */
export async function caseStudyBytes(root: string, sample = 101): Promise<CaseStudyBytes> {
  const pages = await listFiles(path.join(root, 'case-studies'), {
    filter: (file) => /^[a-z0-9-]+\.html$/.test(file),
  })
  if (!pages.length) throw new Error(`${root}/case-studies holds no case study page (<slug>.html)`)
  const qualities = new Set(
    pages
      .flatMap((page) => [`case-studies/${page}`, `case-studies/${page.replace(/\.html$/, '.txt')}`])
      .map((file) => brotliQualityOf(file, 50_000)),
  )
  if (qualities.size !== 1)
    throw new Error(`case study pages get brotli qualities ${[...qualities].join(', ')}: expected one`)
  const [quality] = [...qualities] as [number]
  const rows = { chosen: [] as PageCost[], best: [] as PageCost[] }
  for (const page of evenSample(pages, sample)) {
    const file = (ext: string) => path.join(root, 'case-studies', page.replace(/\.html$/, ext))
    const read = (ext: string) =>
      readFile(file(ext)).catch((error: NodeJS.ErrnoException) => {
        throw new Error(`${file(ext)}: ${error.code}; expected a precompressed case study page`)
      })
    // One after the other: a page missing several files names the first, the same on every run.
    const files: Buffer[] = []
    for (const ext of ['.html', '.txt', '.html.br', '.txt.br']) files.push(await read(ext))
    const [html, payload, htmlBr, payloadBr] = files
    const [html11, payload11] = [timedBrotli(html!, 11), timedBrotli(payload!, 11)]
    // The build's own copies are what goes on the wire; timed again here for their cost.
    const ms = timedBrotli(html!, quality).ms + timedBrotli(payload!, quality).ms
    rows.chosen.push({
      html: htmlBr!.length,
      payload: payloadBr!.length,
      page: htmlBr!.length + payloadBr!.length,
      ms,
    })
    rows.best.push({
      html: html11.bytes,
      payload: payload11.bytes,
      page: html11.bytes + payload11.bytes,
      ms: html11.ms + payload11.ms,
    })
  }
  const medians = (costs: PageCost[]): PageCost => ({
    html: median(costs.map((cost) => cost.html)),
    payload: median(costs.map((cost) => cost.payload)),
    page: median(costs.map((cost) => cost.page)),
    ms: Math.round(median(costs.map((cost) => cost.ms)) * 100) / 100,
  })
  return {
    pages: pages.length,
    sampled: rows.chosen.length,
    quality,
    atQuality: medians(rows.chosen),
    at11: medians(rows.best),
  }
}
