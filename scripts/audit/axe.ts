/** axe-core on every route at phone and desktop widths, in the system Chromium with playwright.config.ts's flags, after the splash. */
import AxeBuilder from '@axe-core/playwright'
import { chromium, type Browser } from '@playwright/test'
import { SPLASH_SEEN_KEY } from '../../lib/splash.ts'

/** The rule sets audited: WCAG 2.0/2.1 A and AA, WCAG 2.2 AA, and axe's best practices. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']

/** Viewport widths audited (a phone and a laptop), in CSS px. */
const AXE_WIDTHS = [390, 1280]

/** One page at one width: the rules it passes, and each it violates with the elements that fail it. */
export type AxePageResult = Awaited<ReturnType<typeof auditPage>>

/** Chromium's path (CHROMIUM_PATH, default Debian's /usr/bin/chromium; empty: Playwright's own). */
export function chromiumPath(): string | undefined {
  return (process.env.CHROMIUM_PATH ?? '/usr/bin/chromium') || undefined
}

/** The launch flags playwright.config.ts uses. */
export const CHROMIUM_ARGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
]

async function auditPage(browser: Browser, origin: string, route: string, width: number) {
  const context = await browser.newContext({ viewport: { width, height: 900 } })
  try {
    await context.addInitScript((key) => sessionStorage.setItem(key, '1'), SPLASH_SEEN_KEY)
    const page = await context.newPage()
    await page.goto(`${origin}${route}`, { waitUntil: 'load' })
    await page.locator('.splash').waitFor({ state: 'detached', timeout: 10_000 })
    const results = await new AxeBuilder({ page })
      .withTags(AXE_TAGS)
      // The booking widget is a third party's page, audited by its provider (and /booking/ on its own here).
      .exclude('iframe')
      .analyze()
    return {
      route,
      width,
      passes: results.passes.length,
      violations: results.violations.map((violation) => ({
        rule: violation.id,
        impact: violation.impact ?? null,
        help: violation.help,
        targets: violation.nodes.map((node) => node.target.join(' ')),
      })),
    }
  } finally {
    await context.close()
  }
}

/** Audits every route (percent-encoded URL paths) of the served site at every width, 2 pages at a time. */
export async function auditAccessibility(
  origin: string,
  routes: readonly string[],
): Promise<AxePageResult[]> {
  const jobs = routes.flatMap((route) => AXE_WIDTHS.map((width) => ({ route, width })))
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS })
  try {
    const results: AxePageResult[] = new Array(jobs.length)
    let next = 0
    const worker = async () => {
      for (let index = next++; index < jobs.length; index = next++) {
        const job = jobs[index]!
        results[index] = await auditPage(browser, origin, job.route, job.width)
      }
    }
    await Promise.all([worker(), worker()])
    return results
  } finally {
    await browser.close()
  }
}
