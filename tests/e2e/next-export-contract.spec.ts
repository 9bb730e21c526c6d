/**
 * The postbuild's contract with Next.js (site-build/next-export-shape.ts): a real Next
 * page, built with the project's own Next, React and export settings
 * (tests/fixtures/next-export/: a heading, a client component and a preloaded
 * next/font face), goes through the whole postbuild, and still hydrates in Chromium.
 * A Next upgrade that changes the export's shape fails here, in CI, instead of
 * silently costing the live site its fast first paint.
 * Runs with the rebuilds (playwright.config.ts), after the other browser tests: it builds.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { test as plain } from '@playwright/test'
import { finalizeExport } from '../../site-build/finalize'
import { deferredPayloadOf, deferredScriptsOf } from '../../site-build/defer-framework-scripts'
import { driftOf } from '../../site-build/next-export-shape'
import { serveExport, type ServedSite } from '../../scripts/audit/serve'
import { expect } from './fixtures'

const APP = path.resolve('tests/fixtures/next-export')
const OUT = path.join(APP, 'out')
const read = (file: string) => readFileSync(path.join(OUT, file), 'utf8')

/** The pages before the postbuild, as Next wrote them. */
let exported: Record<'index.html' | '404.html', string>
let server: ServedSite

plain.describe.configure({ mode: 'serial', timeout: 240_000 })

plain.beforeAll(async () => {
  plain.setTimeout(240_000) // a cold `next build` on 2 cores
  rmSync(OUT, { recursive: true, force: true })
  const build = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build', APP], {
    encoding: 'utf8',
  })
  if (build.status !== 0)
    throw new Error(`next build of the contract app failed:\n${build.stdout}\n${build.stderr}`)
  exported = { 'index.html': read('index.html'), '404.html': read('404.html') }
  await finalizeExport(OUT, { bookingWidgetUrl: '/booking/', contactWebhookUrl: '/api/contact' })
  server = await serveExport(OUT)
})
plain.afterAll(async () => {
  await server?.stop()
})

plain("Next's export has the shape the postbuild rewrites", () => {
  // If these fail, Next writes something else: site-build/next-export-shape.ts needs updating.
  for (const html of Object.values(exported)) {
    expect(html).toMatch(/<script src="\/_next\/static\/[^"]+\.js" async="">/)
    expect(html).toMatch(/<script>self\.__next_f\.push\(\[1,"/)
    expect(html).toMatch(/<style[^>]*>[^<]*url\(\/_next\/static\/media\/[^)]+\.p\.[^)]+\.woff2\)/)
  }
  expect(exported['index.html']).toMatch(/<link rel="preload" as="script"[^>]* href="\/_next\/static\//)
  expect(exported['index.html']).toMatch(
    /<link rel="preload" href="\/_next\/static\/media\/[^"]+\.p\.[^"]+\.woff2" as="font"/,
  )
})

plain(
  'the postbuild defers every chunk, moves the payload to its file and makes the font preload adaptive',
  () => {
    for (const [file, payload] of [
      ['index.html', '/index.txt'],
      ['404.html', '/_not-found.txt'],
    ] as const) {
      const html = read(file)
      expect(driftOf(html, true)).toEqual([])
      const deferred = deferredScriptsOf(html)
      expect(deferred.length).toBeGreaterThan(0)
      // Every chunk Next wrote as <script async> is started by the loader, in the same order.
      const chunks = [...exported[file].matchAll(/<script src="(\/_next\/static\/[^"]+)" async="">/g)].map(
        (m) => m[1],
      )
      expect(deferred).toEqual(chunks)
      expect(deferredPayloadOf(html)).toBe(payload)
      expect(html).not.toContain('self.__next_f.push([1,')
      expect(html).toContain('<noscript><link rel="preload" href="/_next/static/media/')
    }
  },
)

plain('the rewritten page paints, then hydrates: the client component works', async ({ page }) => {
  const scripts: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url())
  })
  await page.goto(`${server.origin}/`)
  await expect(page.getByRole('heading', { name: 'Contract page' })).toBeVisible()
  await expect(page.locator('main[data-hydrated]')).toBeAttached()
  const button = page.getByRole('button', { name: 'Pressed 0 times' })
  await button.click()
  await expect(page.getByRole('button', { name: 'Pressed 1 times' })).toBeVisible()
  expect(scripts.some((url) => url.includes('/_next/static/'))).toBe(true)
})

plain('the 404 page hydrates from its twin payload file, `_not-found.txt`', async ({ page }) => {
  const response = await page.goto(`${server.origin}/no-such-page`)
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: 'Not found' })).toBeVisible()
  // A click before React has hydrated would land on the static button and count nothing.
  await expect(page.locator('main[data-hydrated]')).toBeAttached()
  await page.getByRole('button', { name: 'Pressed 0 times' }).click()
  await expect(page.getByRole('button', { name: 'Pressed 1 times' })).toBeVisible()
})
