/** What a browser downloads: the scripts and page data a route fetches in Chromium, idle and on a first interaction, beside the empty export. */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { chromium, type Browser, type Page } from '@playwright/test'
import { readRedirects } from '../../lib/build-output.ts'
import { SPLASH_SEEN_KEY } from '../../lib/splash.ts'
import { chromiumPath, CHROMIUM_ARGS } from '../audit/axe.ts'
import { htmlFilesOf, routesOf } from '../audit/routes.ts'
import { serveExport } from '../audit/serve.ts'
import { EMPTY_PAGE_OUT, buildEmptyPage } from './bytes.ts'
import { kib, sleep, MISSED, type Tables } from './harness.ts'
import { median } from './median.ts'

/** The screens measured, in CSS px: Lighthouse's desktop and mobile presets. */
export const SCREENS = { desktop: { width: 1350, height: 940 }, phone: { width: 412, height: 823 } }
/** How long a page is left alone after its load event: idle loads and link prefetches land in it. */
export const IDLE_MS = 6000
/** The target: scripts and data at most this times the empty export's (gzip). */
export const TARGET_RATIO = 1.1

export type Download = { url: string; kind: 'script' | 'data'; raw: number; gzip: number; br: number }
export type Totals = Record<Download['kind'], { raw: number; gzip: number; br: number; count: number }>

/** Sums downloads per kind, each URL once (a chunk fetched twice is paid once by the cache). */
export function totalsOf(downloads: readonly Download[]): Totals {
  const totals: Totals = {
    script: { raw: 0, gzip: 0, br: 0, count: 0 },
    data: { raw: 0, gzip: 0, br: 0, count: 0 },
  }
  const seen = new Set<string>()
  for (const download of downloads) {
    if (seen.has(download.url)) continue
    seen.add(download.url)
    const total = totals[download.kind]
    total.raw += download.raw
    total.gzip += download.gzip
    total.br += download.br
    total.count += 1
  }
  return totals
}

/** A script, or page data (Next's RSC payload `.txt`), by what Chromium fetched; null for anything else. */
export function kindOf(url: string, resourceType: string): Download['kind'] | null {
  if (resourceType === 'script') return 'script'
  return new URL(url).pathname.endsWith('.txt') ? 'data' : null
}

/** Records what a page fetches from now on; `taken()` says what came so far. */
function recordDownloads(page: Page) {
  const downloads: Promise<Download | null>[] = []
  page.on('response', (response) => {
    const kind = kindOf(response.url(), response.request().resourceType())
    if (!kind || response.status() !== 200) return
    downloads.push(
      response.body().then(
        (body) => ({
          url: response.url(),
          kind,
          raw: body.length,
          gzip: gzipSync(body, { level: 9 }).length,
          br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
        }),
        () => null,
      ),
    )
  })
  return { taken: async () => (await Promise.all(downloads)).filter((d): d is Download => d !== null) }
}

type Visit = { idle: Totals; menu?: Totals; contact?: Totals }

/** How long an interaction's loads are waited for, in ms. */
const INTERACTION_MS = 2000

/** One visit of a route on one screen: idle for IDLE_MS, then what opening the menu and sending the contact form add. */
async function visit(browser: Browser, url: string, screen: keyof typeof SCREENS): Promise<Visit> {
  const context = await browser.newContext({ viewport: SCREENS[screen] })
  try {
    await context.addInitScript((key) => sessionStorage.setItem(key, '1'), SPLASH_SEEN_KEY)
    const page = await context.newPage()
    const recorder = recordDownloads(page)
    await page.goto(url, { waitUntil: 'load' })
    await sleep(IDLE_MS)
    const result: Visit = { idle: totalsOf(await recorder.taken()) }
    const addedBy = async (act: () => Promise<void>) => {
      const before = new Set((await recorder.taken()).map((download) => download.url))
      await act()
      await sleep(INTERACTION_MS)
      return totalsOf((await recorder.taken()).filter((download) => !before.has(download.url)))
    }
    const menu = page.getByRole('button', { name: 'Menu' }).first()
    if (await menu.isVisible()) {
      result.menu = await addedBy(() => menu.click())
      await page.keyboard.press('Escape')
    }
    const form = page.locator('#contact form')
    if (await form.count())
      result.contact = await addedBy(async () => {
        await form.getByLabel('First name').focus()
        await sleep(INTERACTION_MS)
        await form.getByLabel('First name').fill('Bench')
        await form.getByLabel('Last name').fill('Visitor')
        await form.getByLabel('Email').fill('bench@example.com')
        await form.getByLabel('Phone').fill('+44 20 7946 0000')
        await form.getByRole('button', { name: 'Send Message' }).click()
      })
    return result
  } finally {
    await context.close()
  }
}

/** The median visit of `runs`, by idle script gzip bytes. */
function medianVisit(visits: Visit[]): Visit {
  const middle = median(visits.map((v) => v.idle.script.gzip))
  return visits.find((v) => v.idle.script.gzip === middle) ?? visits[0]!
}

/** Every route of a served export on both screens, `runs` times each; medians by route and screen. */
async function measureExport(browser: Browser, dir: string, runs: number, only?: string[]) {
  const site = await serveExport(dir)
  try {
    // Old addresses' redirect pages and the booking stand-in (no Next page) are no routes of the site's own.
    const redirects = (await readRedirects(site.buildDir))?.redirects
    const routes =
      only ??
      routesOf(await htmlFilesOf(site.buildDir), { redirects, skip: ['booking/'] }).map((route) => route.url)
    const results: Record<string, Record<string, Visit>> = {}
    for (const route of routes)
      for (const screen of Object.keys(SCREENS) as (keyof typeof SCREENS)[]) {
        const visits: Visit[] = []
        for (let run = 0; run < runs; run++)
          visits.push(await visit(browser, `${site.origin}${route}`, screen))
        ;(results[route] ??= {})[screen] = medianVisit(visits)
      }
    return results
  } finally {
    await site.stop()
  }
}

/** An interaction's scripts and data together, gzip KiB and files; '-' when the page has no such part. */
const addedCell = (totals?: Totals) =>
  totals ? `${kib(totals.script.gzip + totals.data.gzip)} (${totals.script.count + totals.data.count})` : '-'

/** `npm run bench -- downloads`: the site's out/ and the empty export, served as `npm start` serves them, 3 runs each. */
export async function measureDownloads(runs = 3): Promise<Tables> {
  await buildEmptyPage()
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS })
  try {
    const empty = (await measureExport(browser, EMPTY_PAGE_OUT, runs, ['/']))['/']
    if (!empty) throw new Error('the empty export has no / route')
    const site = await measureExport(browser, 'out', runs)
    const idleRows: Record<string, Record<string, unknown>> = {}
    const interactionRows: Record<string, Record<string, unknown>> = {}
    const missed: Record<string, Record<string, unknown>> = {}
    for (const [route, screens] of Object.entries({ 'EMPTY EXPORT': empty, ...site }))
      for (const [screen, v] of Object.entries(screens)) {
        const base = empty[screen]!.idle
        const ratio = Math.round((v.idle.script.gzip / base.script.gzip) * 100) / 100
        const label = `${decodeURI(route)} ${screen}`
        idleRows[label] = {
          'scripts gz (n)': `${kib(v.idle.script.gzip)} (${v.idle.script.count})`,
          'scripts br': kib(v.idle.script.br),
          'scripts gz ÷ empty': ratio,
          'data gz (n)': `${kib(v.idle.data.gzip)} (${v.idle.data.count})`,
        }
        if (route !== 'EMPTY EXPORT' && ratio > TARGET_RATIO)
          missed[label] = { target: `scripts at most ${TARGET_RATIO}x the empty export`, ratio }
        if (v.menu || v.contact)
          interactionRows[label] = {
            'menu adds gz (n)': addedCell(v.menu),
            'contact adds gz (n)': addedCell(v.contact),
          }
      }
    return {
      [`Downloaded in ${IDLE_MS / 1000} s after load, no interaction (KiB, median of ${runs})`]: idleRows,
      'First interaction adds (KiB gzip)': interactionRows,
      ...(Object.keys(missed).length ? { [MISSED]: missed } : {}),
    }
  } finally {
    await browser.close()
  }
}
