/**
 * Two editors on one preview process, one of them asking for 40 share cards at once (the
 * heaviest thing a preview draws on request: `/og/<name>.png`, app/og/[card]/route.tsx),
 * on the build in out/ with the preview build made (`npm run build:preview`): how long the
 * other editor's page takes meanwhile (target at most 2 s, the median of `runs`; a 503 is
 * no page at all, and is reported as such), and what
 * the burst got (its answers' statuses: the renderer holds one session to its share,
 * server/preview-renderer.ts).
 */
import { rmSync } from 'node:fs'
import { OG_PAGE_CARDS, ogImagePath } from '../../lib/seo.ts'
import { previewCookie, readyPreviewPublisher, seedFolder, writeDataset } from './editors.ts'
import { median } from './median.ts'
import { keepExport } from './publish.ts'

/** Requests of the bursting editor, sent at once. */
const BURST = 40
/** The other editor's page. */
const PAGE = '/case-studies'

export type FairShareFigures = {
  burst: number
  /** ms, the other editor's page while the burst renders: the median, each run, and its statuses */
  otherPage: { median: number; runs: number[]; statuses: number[] }
  /** ms, the same page with nobody else asking (median of `runs`) */
  alone: number
  /** the burst's answers in the last run, by status */
  burstStatuses: Record<number, number>
  /** ms, from the burst's start to its last answer, the median */
  burstMs: number
}

/** Asks for a page and reads it whole; returns the status and ms taken. */
async function timed(url: string, cookie: string): Promise<{ status: number; ms: number }> {
  const started = performance.now()
  const answer = await fetch(url, { headers: { cookie, 'accept-encoding': 'gzip, deflate, br, zstd' } })
  await answer.arrayBuffer()
  return { status: answer.status, ms: Math.round(performance.now() - started) }
}

/** Measures the figures above on the build in `out/` (which holds it again afterwards). */
export async function measurePreviewFairShare(runs = 3): Promise<FairShareFigures> {
  const kept = keepExport()
  const { dir, file, seed } = seedFolder('bench-fair-share-')
  writeDataset(file, seed)
  const cards = Object.keys(OG_PAGE_CARDS).map(ogImagePath)
  try {
    const site = await readyPreviewPublisher(kept, file)
    try {
      const [burster, other] = [await previewCookie(site.origin), await previewCookie(site.origin)]
      // Warm both: each card's code and the page's.
      for (const card of cards) await timed(`${site.origin}${card}`, burster)
      await timed(`${site.origin}${PAGE}`, other)
      const alone: number[] = []
      const during: number[] = []
      const burstMs: number[] = []
      const statuses: number[] = []
      let burstStatuses: Record<number, number> = {}
      for (let run = 1; run <= runs; run++) {
        console.log(
          `bench: an editor's page beside another's burst of ${BURST} share cards (run ${run} of ${runs})...`,
        )
        alone.push((await timed(`${site.origin}${PAGE}`, other)).ms)
        const started = performance.now()
        const burst = Promise.all(
          Array.from({ length: BURST }, (_, index) =>
            timed(`${site.origin}${cards[index % cards.length]}?n=${run}-${index}`, burster),
          ),
        )
        // The burst is at the preview first; then the other editor asks.
        await new Promise((resolve) => setTimeout(resolve, 50))
        // A refusal (busy) is timed too: the editor has no page when it comes.
        const page = await timed(`${site.origin}${PAGE}`, other)
        during.push(page.ms)
        statuses.push(page.status)
        const answers = await burst
        burstMs.push(Math.round(performance.now() - started))
        burstStatuses = {}
        for (const { status } of answers) burstStatuses[status] = (burstStatuses[status] ?? 0) + 1
        // The next run starts with nothing left of this one.
        await new Promise((resolve) => setTimeout(resolve, 1000))
      }
      return {
        burst: BURST,
        otherPage: { median: median(during), runs: during, statuses },
        alone: median(alone),
        burstStatuses,
        burstMs: median(burstMs),
      }
    } finally {
      await site.stop()
    }
  } finally {
    kept.restore()
    kept.drop()
    rmSync(dir, { recursive: true, force: true })
  }
}
