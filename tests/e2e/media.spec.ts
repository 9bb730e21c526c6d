/**
 * Content images on the live site (`npm start`) and the policy they are served under
 * (lib/build-output.ts `MEDIA_HEADERS`), in Chromium: the seed's drawings carry it and still
 * draw, in pages and opened on their own; a drawing with scripts opened on its own under it
 * runs nothing and keeps its styles, while the same file served without it runs (what these
 * tests see when a script runs). The real publish of such a drawing, cleaned by the build,
 * is in rebuilds.spec.ts.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { MEDIA_HEADERS } from '../../site-build/headers'
import { mediaFileName } from '../../lib/content/image'
import { documentsOf } from './content'
import { expect, test } from './fixtures'
import { MALICIOUS_SVG, RAN_PATH, whatRan } from './malicious-svg'

const POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox"

test("the seed's drawings are served under the media policy, with nosniff, and draw in pages and on their own", async ({
  page,
  request,
}) => {
  const drawings = documentsOf('sanity.imageAsset')
    .map((asset) => `/media/${mediaFileName(asset._id)}`)
    .filter((src) => src.endsWith('.svg'))
  expect(drawings.length).toBeGreaterThan(5)
  for (const src of drawings) {
    const answer = await request.get(src)
    expect([src, answer.status(), answer.headers()['content-type']]).toEqual([src, 200, 'image/svg+xml'])
    expect(answer.headers()['content-security-policy']).toBe(POLICY)
    expect(answer.headers()['x-content-type-options']).toBe('nosniff')
    await page.goto(src)
    const size = await page.evaluate(() => {
      const { width, height } = document.documentElement.getBoundingClientRect()
      return { root: document.documentElement.localName, width, height }
    })
    expect([src, size]).toEqual([src, { root: 'svg', width: 1200, height: 800 }])
  }
  // In a page, as <img> (the hero, the cards below the fold: not inlined), decoded at their size.
  await page.goto('/')
  const images = page.locator('img[src^="/media/"][src$=".svg"]')
  expect(await images.count()).toBeGreaterThan(0)
  for (const image of await images.all()) {
    await image.scrollIntoViewIfNeeded()
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(1200)
  }
})

test('a drawing with a script, opened on its own under the media policy, runs nothing and keeps its styles; without it, it runs', async ({
  page,
}) => {
  const asked: string[] = []
  const server = http.createServer((request, response) => {
    asked.push(request.url ?? '')
    if (request.url?.startsWith(RAN_PATH)) return void response.end()
    const guarded = request.url === '/guarded.svg'
    response.writeHead(200, { 'Content-Type': 'image/svg+xml', ...(guarded ? MEDIA_HEADERS : {}) })
    response.end(MALICIOUS_SVG)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  try {
    await page.goto(`${origin}/bare.svg`)
    await expect.poll(() => asked.filter((path) => path.startsWith(RAN_PATH)).length).toBeGreaterThan(0)
    expect((await whatRan(page, asked)).ran).toContain('the global was set')

    asked.length = 0
    await page.goto(`${origin}/guarded.svg`)
    expect(await whatRan(page, asked)).toEqual({
      ran: [],
      square: 'rgb(255, 0, 0)',
      dot: 'rgb(0, 0, 255)',
    })
    // Nothing else asked of its origin (a browser may ask for the favicon).
    expect(asked.filter((path) => path !== '/favicon.ico')).toEqual(['/guarded.svg'])
  } finally {
    server.close()
  }
})
