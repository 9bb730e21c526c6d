/**
 * What a browser downloads: the scripts and page data a route fetches in Chromium, idle and on a first interaction,
 * and the HTML and CSS ahead of its LCP element, beside the empty export; and the phone Menu's first tap and
 * two soft navigations, timed in the page.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { chromium, type Browser, type BrowserContextOptions, type Page } from '@playwright/test'
import { readRedirects } from '../../lib/build-output.ts'
import { SPLASH_SEEN_KEY } from '../../lib/splash.ts'
import { chromiumPath, CHROMIUM_ARGS } from '../audit/axe.ts'
import { htmlFilesOf, routesOf } from '../audit/routes.ts'
import { serveExport } from '../audit/serve.ts'
import { EMPTY_PAGE_OUT, buildEmptyPage } from './bytes.ts'
import { kib, sleep, MISSED, type Tables } from './harness.ts'
import { median, medianBy } from './median.ts'

/** The screens measured, in CSS px: Lighthouse's desktop and mobile presets. */
export const SCREENS = { desktop: { width: 1350, height: 940 }, phone: { width: 412, height: 823 } }
/** How long a page is left alone after its load event: idle loads and link prefetches land in it. */
export const IDLE_MS = 6000
/** The target: scripts and data at most this times the empty export's (gzip). */
export const TARGET_RATIO = 1.1
/** The target for the phone Menu's first tap, in ms to the frame showing its links. */
export const TAP_TARGET_MS = 100
/** Lighthouse's mobile preset as its devtools throttling applies it (B/s: 1.6 Mbit/s and 750 kbit/s, x0.9), at 150 ms latency. */
const PHONE_NETWORK = { offline: false, latency: 150, downloadThroughput: 188_743, uploadThroughput: 86_400 }
const TAP = 'first Menu tap on'
/** The soft navigations timed: from a page, through the header's link, to a page. */
const NAVIGATIONS = [
  ['/', 'Case Studies', '/case-studies'],
  ['/case-studies', 'Sites', '/sites'],
] as const

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

/**
 * The served HTML ahead of the LCP element's opening tag (`tag`, from outerHTML: React may write `fetchPriority`,
 * close it with `/>` and `'` as `&#x27;`), the bytes of its inline `<style>` elements and the stylesheets it links.
 * @throws Error naming `route` when the tag is not in the HTML
 */
export function aheadOf(html: string, tag: string, route: string) {
  const pattern = tag
    .slice(0, -1)
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replaceAll("'", "(?:'|&#x27;)")
  const at = new RegExp(`${pattern}/?>`, 'i').exec(html)?.index
  if (at === undefined) throw new Error(`${route}: the LCP element ${tag} is not in the HTML as served`)
  const before = html.slice(0, at)
  return {
    before,
    style: Buffer.byteLength(before.match(/<style[\s>][\s\S]*?<\/style>/g)?.join('') ?? ''),
    sheets: [...before.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map((match) => match[1]!),
  }
}

/** The page's LCP element (the last buffered entry's: tag#id or tag.first-class) and the bytes ahead of it in `html`, its document as served: HTML raw and gzip 9, its inline styles, stylesheets raw and gzip 9. */
async function lcpOf(page: Page, html: string, url: string) {
  const found = await page.evaluate(
    () =>
      new Promise<[string, string] | null>((resolve) => {
        setTimeout(() => resolve(null), 2000)
        new PerformanceObserver((list) => {
          const element = (list.getEntries().at(-1) as LargestContentfulPaint | undefined)?.element
          if (!element) return
          const name = element.id ? `#${element.id}` : element.classList[0] ? `.${element.classList[0]}` : ''
          resolve([element.outerHTML.slice(0, element.outerHTML.indexOf('>') + 1), element.localName + name])
        }).observe({ type: 'largest-contentful-paint', buffered: true })
      }),
  )
  if (!found) throw new Error(`${url}: no LCP element`)
  const { before, style, sheets } = aheadOf(html, found[0], url)
  const css = await Promise.all(
    sheets.map(async (href) => Buffer.from(await (await fetch(new URL(href, url))).arrayBuffer())),
  )
  return {
    element: found[1],
    html: Buffer.byteLength(before),
    htmlGzip: gzipSync(before, { level: 9 }).length,
    style,
    css: css.reduce((sum, file) => sum + file.length, 0),
    cssGzip: css.reduce((sum, file) => sum + gzipSync(file, { level: 9 }).length, 0),
    sheets: css.length,
  }
}

type Rows = Tables[string]
type Visit = { idle: Totals; lcp: Awaited<ReturnType<typeof lcpOf>>; menu?: Totals; contact?: Totals }

/** How long an interaction's loads are waited for, in ms. */
const INTERACTION_MS = 2000

/** One visit of a route on one screen: idle for IDLE_MS, its LCP element, then what opening the menu and sending the contact form add. */
function visit(browser: Browser, url: string, screen: keyof typeof SCREENS): Promise<Visit> {
  return withPage(browser, { viewport: SCREENS[screen] }, async (page) => {
    const recorder = recordDownloads(page)
    const html = (await (await page.goto(url, { waitUntil: 'load' }))?.text()) ?? ''
    await sleep(IDLE_MS)
    const result: Visit = { idle: totalsOf(await recorder.taken()), lcp: await lcpOf(page, html, url) }
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
  })
}

/** Every route of a served export (or `only` those) on both screens, `runs` times each; the visits by route and screen. */
async function measureExport(browser: Browser, dir: string, runs: number, only?: string[]) {
  const site = await serveExport(dir)
  try {
    // Old addresses' redirect pages and the booking stand-in (no Next page) are no routes of the site's own.
    const redirects = (await readRedirects(site.buildDir))?.redirects
    const routes =
      only ??
      routesOf(await htmlFilesOf(site.buildDir), { redirects, skip: ['booking/'] }).map((route) => route.url)
    const results: Record<string, Record<string, Visit[]>> = {}
    for (const route of routes)
      for (const screen of Object.keys(SCREENS) as (keyof typeof SCREENS)[]) {
        const visits: Visit[] = []
        for (let run = 0; run < runs; run++)
          visits.push(await visit(browser, `${site.origin}${route}`, screen))
        ;(results[route] ??= {})[screen] = visits
      }
    return results
  } finally {
    await site.stop()
  }
}

/** An interaction's scripts and data together, gzip KiB and files; '-' when the page has no such part. */
const addedCell = (totals?: Totals) =>
  totals ? `${kib(totals.script.gzip + totals.data.gzip)} (${totals.script.count + totals.data.count})` : '-'

/** Runs `step` on a page of a fresh context (given `options`) where the splash counts as seen, then closes it. */
async function withPage<T>(
  browser: Browser,
  options: BrowserContextOptions,
  step: (page: Page) => Promise<T>,
): Promise<T> {
  const context = await browser.newContext(options)
  try {
    await context.addInitScript((key) => sessionStorage.setItem(key, '1'), SPLASH_SEEN_KEY)
    return await step(await context.newPage())
  } finally {
    await context.close()
  }
}

/** Opens `url` hydrated (on the phone with touch and Lighthouse's mobile throttling of network and CPU) and hands `step` the page. */
const onHydrated = <T>(browser: Browser, url: string, phone: boolean, step: (page: Page) => Promise<T>) =>
  withPage(
    browser,
    phone ? { viewport: SCREENS.phone, isMobile: true, hasTouch: true } : { viewport: SCREENS.desktop },
    async (page) => {
      if (phone) {
        const cdp = await page.context().newCDPSession(page)
        await cdp.send('Network.emulateNetworkConditions', PHONE_NETWORK)
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
      }
      await page.goto(url)
      await page.locator('html[data-hydrated]').waitFor({ state: 'attached', timeout: 60_000 })
      return step(page)
    },
  )

/**
 * ms from `act`'s event `on` (pointerdown: its timeStamp; click: performance.now() then) to the first animation frame
 * where the header shows more links than before or, given `to`, the page is `to` with another `main h1`.
 */
async function timeInPage(page: Page, on: 'pointerdown' | 'click', act: () => Promise<unknown>, to?: string) {
  const armed = await page.evaluateHandle(
    ([event, path]) => {
      const links = () =>
        [...document.querySelectorAll('header nav a')].filter(
          (link) => link.checkVisibility() && link.getBoundingClientRect().width > 0,
        ).length
      const h1 = () => document.querySelector('main h1')?.textContent
      const [linksBefore, h1Before] = [links(), h1()]
      const done = () => (path ? location.pathname === path && h1() !== h1Before : links() > linksBefore)
      const took = new Promise<number>((resolve, reject) => {
        const listener = (happened: Event) => {
          const start = event === 'click' ? performance.now() : happened.timeStamp
          const frame = () =>
            requestAnimationFrame(() => (done() ? resolve(performance.now() - start) : frame()))
          frame()
          setTimeout(() => reject(new Error(`nothing changed within 10 s of the ${event}`)), 10_000)
        }
        addEventListener(event, listener, { capture: true, once: true })
      })
      return { took } // not the promise itself, which evaluateHandle would wait for
    },
    [on, to] as const,
  )
  await act()
  return armed.evaluate((armed) => armed.took)
}

/** The phone Menu's first taps and the soft navigations on the site's out/, `runs` each, by label (ms). */
async function measureInteractions(browser: Browser, runs: number) {
  const site = await serveExport('out')
  const took: Record<string, number[]> = {}
  try {
    for (let run = 0; run < runs; run++) {
      for (const route of ['/', '/case-studies'])
        (took[`${TAP} ${route}, phone throttled`] ??= []).push(
          await onHydrated(browser, `${site.origin}${route}`, true, (page) =>
            timeInPage(page, 'pointerdown', () =>
              page.getByRole('button', { name: 'Menu' }).filter({ visible: true }).tap(),
            ),
          ),
        )
      for (const [from, name, to] of NAVIGATIONS)
        (took[`${from} -> ${to}, '${name}' hovered 500 ms, desktop`] ??= []).push(
          await onHydrated(browser, `${site.origin}${from}`, false, async (page) => {
            const link = page.locator('header').getByRole('link', { name, exact: true })
            await link.hover()
            await sleep(500)
            return timeInPage(page, 'click', () => link.click(), to)
          }),
        )
    }
    return took
  } finally {
    await site.stop()
  }
}

/** `npm run bench -- downloads`: the site's out/ (`only` some routes) and the empty export, served as `npm start` serves them, 3 runs each. */
export async function measureDownloads(only?: string[], runs = 3): Promise<Tables> {
  await buildEmptyPage()
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS })
  try {
    const empty = (await measureExport(browser, EMPTY_PAGE_OUT, runs, ['/']))['/']
    if (!empty) throw new Error('the empty export has no / route')
    const site = await measureExport(browser, 'out', runs, only)
    const took = await measureInteractions(browser, runs)
    const [idleRows, interactionRows, lcpRows, missed]: [Rows, Rows, Rows, Rows] = [{}, {}, {}, {}]
    for (const [route, screens] of Object.entries({ 'EMPTY EXPORT': empty, ...site }))
      for (const [screen, visits] of Object.entries(screens)) {
        const v = medianBy(visits, (visit) => visit.idle.script.gzip)
        const base = medianBy(empty[screen]!, (visit) => visit.idle.script.gzip).idle
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
        const lcp = medianBy(visits, (visit) => visit.lcp.html).lcp
        lcpRows[label] = {
          element: lcp.element,
          'HTML raw/gz': `${kib(lcp.html)} / ${kib(lcp.htmlGzip)}`,
          '<style> raw': kib(lcp.style),
          'CSS files raw/gz (n)': `${kib(lcp.css)} / ${kib(lcp.cssGzip)} (${lcp.sheets})`,
        }
      }
    for (const [label, ms] of Object.entries(took))
      if (label.startsWith(TAP) && median(ms) > TAP_TARGET_MS)
        missed[label] = { target: `at most ${TAP_TARGET_MS} ms`, ms: Math.round(median(ms)) }
    return {
      [`Downloaded in ${IDLE_MS / 1000} s after load, no interaction (KiB, median of ${runs})`]: idleRows,
      'First interaction adds (KiB gzip)': interactionRows,
      [`Ahead of the LCP element, as served (KiB, median of ${runs})`]: lcpRows,
      [`Menu tap to its links shown; header link click to the new page's h1 (median of ${runs})`]:
        Object.fromEntries(
          Object.entries(took).map(([label, ms]) => [
            label,
            { 'median ms': Math.round(median(ms)), runs: ms.map(Math.round).join(', ') },
          ]),
        ),
      ...(Object.keys(missed).length ? { [MISSED]: missed } : {}),
    }
  } finally {
    await browser.close()
  }
}
