/**
 * Presentation's refresh in the editors' preview, measured in Chromium, on the build in
 * out/ with the preview built (`npm run build:preview`): a page of the site frames the
 * home page as the Studio's Presentation does (./presentation.ts), and
 *  - one saved change: a draft of the site settings' hero headline written to the local
 *    dataset, then `presentation/refresh` (source `mutation`) as Presentation posts after a
 *    save -> the frame's heading showing it (its DOM, watched by a MutationObserver);
 *  - typing: 20 changes 50 ms apart, each followed by such a refresh -> the last one
 *    showing, and how many page renders (RSC requests) the frame asked for, up to the
 *    refresh Presentation's visual editing asks for a second after the last change;
 *  - both again as the preview refreshed before renders were coalesced ("each change
 *    rendered"): Next's router refreshed at once for every change and once more a second
 *    after the last, as visual editing called the old refresh; called on the frame's
 *    router instance (the object `useRouter()` returns), since the frame now coalesces
 *    what Presentation asks;
 * each the median of `runs`, at the seed and at the seed plus `scale` case studies.
 */
import { rmSync } from 'node:fs'
import os from 'node:os'
import { chromium, type Frame } from '@playwright/test'
import { DEFAULT_LOCAL_DATASET, type StoredDocument } from '../../lib/content/source.ts'
import { CHROMIUM_ARGS, chromiumPath } from '../audit/axe.ts'
import { previewCookie, readyPreviewPublisher, seedFolder, writeDataset } from './editors.ts'
import { median } from './median.ts'
import { openPresentation, type PresentationFrame } from './presentation.ts'
import { keepExport } from './publish.ts'
import { largeDataset } from './validation.ts'

/** Changes of the typing run, and ms between them (an editor typing a word or two). */
const TYPED_CHANGES = 20
const TYPING_GAP_MS = 50
/** Where the home page shows the hero headline. */
const HEADLINE = '#hero-heading'
/** Visual editing asks for one more refresh this long after the last change (ms). */
const LATE_REFRESH_MS = 1000

/** A median and each run's figure. */
export type Runs = { median: number; runs: number[] }

/** The figures of one way of refreshing. */
export type RefreshWay = {
  /** ms, one saved change -> the frame showing it */
  oneChange: Runs
  /** ms, the last of the typed changes -> the frame showing it */
  typingLastShown: Runs
  /** page renders the frame asked for while typing, the late refresh included */
  typingRenders: Runs
}

export type PreviewRefreshFigures = {
  sizes: {
    caseStudies: number
    /** as the preview refreshes now: one render at a time, changes meanwhile in one more */
    coalesced: RefreshWay
    /** as it refreshed before: every change rendered */
    eachChange: RefreshWay
    /** the machine's load average (1, 5, 15 min) after the runs: other work moves these figures */
    loadAfter: number[]
  }[]
}

const now = () => performance.timeOrigin + performance.now()
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * How far the frame's clock is ahead of this process's, in ms (both count epoch ms from
 * their own time origin): the round trip with the least time, halved.
 */
async function clockOffset(frame: Frame): Promise<number> {
  let best = { trip: Infinity, offset: 0 }
  for (let probe = 0; probe < 7; probe++) {
    const sent = now()
    const there = await frame.evaluate(() => performance.timeOrigin + performance.now())
    const back = now()
    if (back - sent < best.trip) best = { trip: back - sent, offset: there - (sent + back) / 2 }
  }
  return best.offset
}

/** The seed's site settings with a draft of them whose hero headline is `headline`. */
function withHeadline(documents: StoredDocument[], headline: string): StoredDocument[] {
  const settings = documents.find((doc) => doc._id === 'siteSettings')
  if (!settings) throw new Error(`${DEFAULT_LOCAL_DATASET} has no siteSettings document`)
  return [...documents, { ...settings, _id: 'drafts.siteSettings', heroHeadline: headline }]
}

/** One way the frame is told to render again after a change. */
type Refresher = (presentation: PresentationFrame) => Promise<unknown>

/** As Presentation does: a `presentation/refresh` message after the save. */
const asPresentation: Refresher = (presentation) => presentation.refresh('mutation')

/**
 * As visual editing called the refresh before renders were coalesced: Next's router
 * refreshed at once, and again a second after the last change. The router is the frame's
 * own instance, the value of Next's router context (what `useRouter()` returns), found
 * from the heading's React fiber: Next puts it on `window` only in development.
 * @throws Error when no router context is above the heading
 */
const eachChange: Refresher = ({ frame }) =>
  frame.evaluate(
    ({ lateMs, selector }) => {
      type Router = { refresh: () => void; push: unknown; prefetch: unknown }
      type Fiber = { return: Fiber | null; memoizedProps?: { value?: Partial<Router> } | null }
      const state = window as unknown as { benchRouter?: Router; lateRefresh?: ReturnType<typeof setTimeout> }
      if (!state.benchRouter) {
        const element = document.querySelector(selector) as unknown as Record<string, Fiber> | null
        const key = element && Object.keys(element).find((name) => name.startsWith('__reactFiber$'))
        for (let fiber = key ? element[key] : null; fiber && !state.benchRouter; fiber = fiber.return) {
          const value = fiber.memoizedProps?.value
          if (
            typeof value?.refresh === 'function' &&
            typeof value.push === 'function' &&
            typeof value.prefetch === 'function'
          )
            state.benchRouter = value as Router
        }
      }
      const router = state.benchRouter
      if (!router) throw new Error(`no router context of Next's above ${selector} in the frame`)
      router.refresh()
      clearTimeout(state.lateRefresh)
      state.lateRefresh = setTimeout(() => router.refresh(), lateMs)
    },
    { lateMs: LATE_REFRESH_MS, selector: HEADLINE },
  )

/**
 * Waits until the frame is done rendering: the late refresh's time has passed since
 * `lastChange` (and a second more: a busy frame may start it late), every render it asked
 * for has ended, and none started for 0.7 s.
 * @throws Error after 60 s, naming the renders still running
 */
async function settled(presentation: PresentationFrame, lastChange: number): Promise<void> {
  const until = now() + 60_000
  for (;;) {
    const renders = presentation.renders()
    const running = renders.filter((render) => render.ended === undefined)
    const latest = Math.max(0, ...renders.map((render) => render.started))
    if (now() > lastChange + LATE_REFRESH_MS + 1000 && !running.length && now() - latest > 700) return
    if (now() > until)
      throw new Error(
        `bench: the preview frame kept rendering for 60 s (${running.length} running: ${running.map((render) => render.url).join(', ')})`,
      )
    await sleep(100)
  }
}

/**
 * One saved change and its refresh.
 * @returns ms from the write to the frame's heading showing it
 */
async function oneChange(
  presentation: PresentationFrame,
  refresh: Refresher,
  file: string,
  documents: StoredDocument[],
  offset: number,
): Promise<number> {
  const headline = `Saved change ${Math.random().toString(36).slice(2)}`
  const shown = await presentation.watchFor(headline, HEADLINE)
  const written = now()
  writeDataset(file, withHeadline(documents, headline))
  await refresh(presentation)
  const ms = (await shown()) - offset - written
  await settled(presentation, written)
  return ms
}

/**
 * Changes as fast as an editor types, each saved and followed by its refresh.
 * @returns ms from the last write to the frame's heading showing it, and the renders the
 *   frame asked for from the first change until it settled
 */
async function typing(
  presentation: PresentationFrame,
  refresh: Refresher,
  file: string,
  documents: StoredDocument[],
  offset: number,
): Promise<{ lastShownMs: number; renders: number }> {
  const word = Math.random().toString(36).slice(2, 8)
  const headlines = Array.from({ length: TYPED_CHANGES }, (_, index) => `Typed ${word} ${index + 1}`)
  const shown = await presentation.watchFor(headlines.at(-1)!, HEADLINE)
  const before = presentation.renders().length
  const start = now()
  let written = 0
  for (const [index, headline] of headlines.entries()) {
    await sleep(Math.max(0, start + index * TYPING_GAP_MS - now()))
    written = now()
    writeDataset(file, withHeadline(documents, headline))
    await refresh(presentation)
  }
  const lastShownMs = (await shown()) - offset - written
  await settled(presentation, written)
  return { lastShownMs, renders: presentation.renders().length - before }
}

const runsOf = (samples: number[]): Runs => ({
  median: Math.round(median(samples)),
  runs: samples.map(Math.round),
})

/**
 * Measures the figures above on the build in `out/` (which holds it again afterwards).
 * @param scale case studies added to the seed for the second size (0: the seed only)
 */
export async function measurePreviewRefresh(runs = 3, scale = 200): Promise<PreviewRefreshFigures> {
  const kept = keepExport()
  const { dir, file, seed } = seedFolder('bench-refresh-')
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS })
  const sizes: PreviewRefreshFigures['sizes'] = []
  try {
    for (const documents of [seed, ...(scale > 0 ? [largeDataset(seed, 0, scale)] : [])]) {
      const caseStudies = documents.filter((doc) => doc._type === 'caseStudy').length
      writeDataset(file, documents)
      const site = await readyPreviewPublisher(kept, file)
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } })
      try {
        const cookie = await previewCookie(site.origin)
        const split = cookie.indexOf('=')
        await context.addCookies([
          { name: cookie.slice(0, split), value: cookie.slice(split + 1), url: site.origin },
        ])
        const page = await context.newPage()
        await page.goto(`${site.origin}/`, { waitUntil: 'load' })
        const presentation = await openPresentation(page, '/')
        const offset = await clockOffset(presentation.frame)
        // The first renders of the preview process load what the later ones reuse.
        await oneChange(presentation, asPresentation, file, documents, offset)
        await oneChange(presentation, eachChange, file, documents, offset)
        const samples = {
          coalesced: { one: [] as number[], shown: [] as number[], renders: [] as number[] },
          eachChange: { one: [] as number[], shown: [] as number[], renders: [] as number[] },
        }
        for (let run = 1; run <= runs; run++) {
          console.log(`bench: Presentation's refresh, ${caseStudies} case studies (run ${run} of ${runs})...`)
          // Alternating which goes first, so that neither always runs on a warmer process.
          const ways = [
            ['coalesced', asPresentation],
            ['eachChange', eachChange],
          ] as const
          for (const [way, refresh] of run % 2 ? ways : [...ways].reverse()) {
            samples[way].one.push(await oneChange(presentation, refresh, file, documents, offset))
            const typed = await typing(presentation, refresh, file, documents, offset)
            samples[way].shown.push(typed.lastShownMs)
            samples[way].renders.push(typed.renders)
          }
        }
        if ((await presentation.loads()) !== 1)
          throw new Error('bench: the preview frame reloaded: a refresh should render it in place')
        await presentation.close()
        const figures = (way: keyof typeof samples): RefreshWay => ({
          oneChange: runsOf(samples[way].one),
          typingLastShown: runsOf(samples[way].shown),
          typingRenders: runsOf(samples[way].renders),
        })
        sizes.push({
          caseStudies,
          coalesced: figures('coalesced'),
          eachChange: figures('eachChange'),
          loadAfter: os.loadavg().map((load) => Math.round(load * 100) / 100),
        })
      } finally {
        await context.close()
        await site.stop()
      }
    }
    return { sizes }
  } finally {
    await browser.close()
    kept.restore()
    kept.drop()
    rmSync(dir, { recursive: true, force: true })
  }
}
