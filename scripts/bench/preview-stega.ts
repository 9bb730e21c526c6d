/**
 * What click-to-edit costs and covers in the editors' preview, per route, on the build in
 * out/ with the preview built (`npm run build:preview`), at the seed:
 *  - the preview's HTML with its stega against the same HTML without it (every run of
 *    stega's invisible characters taken out: `vercelStegaClean`, which is all that differs),
 *    uncompressed and gzipped (zlib's default level, as Next's server compresses the
 *    preview's answers);
 *  - the coverage: of the texts an editor owns that the page shows, those that carry an
 *    edit link to their own document and field, read in Chromium as the overlays read them
 *    (scripts/audit/stega-coverage.ts, the check the preview's e2e test runs).
 * Sizes are bytes, the same on every run: one run each.
 */
import { rmSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { chromium } from '@playwright/test'
import { vercelStegaClean } from '@vercel/stega'
import { withPerspective } from '../../lib/content/source.ts'
import { CHROMIUM_ARGS, chromiumPath } from '../audit/axe.ts'
import { NOT_FOUND_ROUTE } from '../audit/routes.ts'
import { collectPageTexts, coverageOf, ownedTexts, previewRoutes } from '../audit/stega-coverage.ts'
import { previewCookie, readyPreviewPublisher, seedFolder, writeDataset } from './editors.ts'
import { keepExport } from './publish.ts'

/** One route's figures. */
export type StegaRoute = {
  route: string
  /** bytes of the preview's HTML, uncompressed (`raw`) and gzipped as the preview sends it */
  withStega: { raw: number; gzip: number }
  withoutStega: { raw: number; gzip: number }
  /** texts an editor owns on the page, and those linked to their field */
  owned: number
  linked: number
}

const sizes = (html: string) => ({
  raw: Buffer.byteLength(html),
  gzip: gzipSync(html).length,
})

/**
 * Measures every route of the preview at the seed (`previewRoutes`).
 * @throws when the preview does not start or a page does not answer 200 (404 for the 404 page)
 */
export async function measurePreviewStega(): Promise<StegaRoute[]> {
  const kept = keepExport()
  const { dir, file, seed: documents } = seedFolder('bench-stega-')
  writeDataset(file, documents)
  const view = withPerspective(documents, 'drafts')
  const owned = ownedTexts(view)
  const site = await readyPreviewPublisher(kept, file)
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS })
  const figures: StegaRoute[] = []
  try {
    const cookie = await previewCookie(site.origin)
    const split = cookie.indexOf('=')
    const context = await browser.newContext()
    await context.addCookies([
      { name: cookie.slice(0, split), value: cookie.slice(split + 1), url: site.origin },
    ])
    const page = await context.newPage()
    for (const route of previewRoutes(view)) {
      const answer = await fetch(`${site.origin}${route}`, { headers: { cookie } })
      const expected = route === NOT_FOUND_ROUTE ? 404 : 200
      if (answer.status !== expected) throw new Error(`the preview's ${route} answered ${answer.status}`)
      const html = await answer.text()
      await page.goto(`${site.origin}${route}`, { waitUntil: 'load' })
      await page.locator('sanity-visual-editing').waitFor({ state: 'attached' })
      const coverage = coverageOf(await page.evaluate(collectPageTexts), owned)
      figures.push({
        route,
        withStega: sizes(html),
        withoutStega: sizes(vercelStegaClean(html)),
        owned: coverage.owned,
        linked: coverage.linked,
      })
    }
  } finally {
    await browser.close()
    await site.stop()
    kept.restore()
    rmSync(dir, { recursive: true, force: true })
  }
  return figures
}

/** Prints the figures as a table, with the whole site's sums. */
export function printPreviewStega(figures: StegaRoute[]) {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`
  const ratio = (a: number, b: number) => `${((a / b - 1) * 100).toFixed(1)}%`
  console.log(
    '\nClick-to-edit in the preview, per route (seed): coverage, and HTML with stega against without',
  )
  console.table(
    figures.map((route) => ({
      route: route.route,
      coverage: `${route.linked} of ${route.owned} (${route.owned ? Math.round((100 * route.linked) / route.owned) : 100}%)`,
      'HTML with': kb(route.withStega.raw),
      'HTML without': kb(route.withoutStega.raw),
      'raw +': ratio(route.withStega.raw, route.withoutStega.raw),
      'gzip with': kb(route.withStega.gzip),
      'gzip without': kb(route.withoutStega.gzip),
      'gzip +': ratio(route.withStega.gzip, route.withoutStega.gzip),
    })),
  )
}
