import { readFileSync } from 'node:fs'
import path from 'node:path'
import { VERCEL_STEGA_REGEX } from '@vercel/stega'
import { listFiles } from '../../lib/build-output'
import { expect, test } from './fixtures'
import { documentsOf, SAMPLE_ROUTES as routes, settings } from './content'

test("visitors' export carries no stega: no page, payload, feed or header file holds an edit link", async () => {
  // Every text file of the build the tests serve: pages, React's payloads, scripts, feeds.
  const text = /\.(html|txt|json|xml|js|css|webmanifest|svg)$|^_(headers|redirects)$/
  const files = (await listFiles('out')).filter((file) => text.test(path.basename(file)))
  expect(files.length).toBeGreaterThan(50)
  const stega = new RegExp(VERCEL_STEGA_REGEX.source, 'u')
  expect(files.filter((file) => stega.test(readFileSync(path.join('out', file), 'utf8')))).toEqual([])
})

test('no request leaves the origin, on any route', async ({ page, baseURL }) => {
  const outside: string[] = []
  page.on('request', (request) => {
    const url = request.url()
    if (!url.startsWith(baseURL!) && !/^(data|blob|about):/.test(url)) outside.push(url)
  })
  for (const route of routes) {
    await page.goto(route)
    await page.waitForLoadState('networkidle')
  }
  expect(outside).toEqual([])
})

test('every content image is served by the site, with width and height set', async ({ page }) => {
  for (const route of ['/', '/case-studies', '/sites']) {
    await page.goto(route)
    for (const image of await page.locator('main img').all()) {
      // A small raster image above the fold may come as a data: URL (lib/content/inline-image.ts
      // inlineIfSmall); a small SVG is drawn by an <svg> instead (paint-first.spec).
      expect(await image.getAttribute('src')).toMatch(/^(\/media\/|data:image\/)/)
      expect(Number(await image.getAttribute('width'))).toBeGreaterThan(0)
      expect(Number(await image.getAttribute('height'))).toBeGreaterThan(0)
      expect(await image.getAttribute('alt')).toBeTruthy()
    }
  }
})

test.describe('the text is in the exported HTML, readable without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('home page', async ({ page }) => {
    await page.goto('/')
    const main = page.locator('main')
    for (const review of documentsOf('review')) await expect(main).toContainText(String(review.text))
    for (const faq of documentsOf('faq')) await expect(main).toContainText(String(faq.answer))
    for (const item of documentsOf('growthItem')) await expect(main).toContainText(String(item.content))
    await expect(main).toContainText(settings.contactIntro)
  })

  test('case study page', async ({ page }) => {
    const [study] = documentsOf('caseStudy') as unknown as { slug: { current: string }; details: string[] }[]
    await page.goto(`/case-studies/${study!.slug.current}`)
    for (const step of study!.details) await expect(page.locator('main')).toContainText(step)
  })
})

test('sitemap.xml lists every case study by its slug, robots.txt points at it', async ({ request }) => {
  const sitemap = await (await request.get('/sitemap.xml')).text()
  for (const study of documentsOf('caseStudy') as unknown as {
    slug: { current: string }
    legacyId: string
  }[]) {
    expect(sitemap).toContain(`/case-studies/${study.slug.current}</loc>`)
    expect(sitemap).not.toContain(study.legacyId)
  }
  expect(await (await request.get('/robots.txt')).text()).toContain('sitemap.xml')
})

test.describe('a photo is sent at the size its slot needs, not as uploaded', () => {
  // The seed's one raster image (studio/seed/images/site-cafe.png, 1200 px): a card on /sites.
  for (const [width, scale, expected] of [
    [390, 2, 800], // a phone at 2x: the card is the screen's width, 780 device px
    [1280, 1, 480], // a desktop: a third of the grid, 352 px
  ] as const)
    test(`${width} px wide at ${scale}x: the ${expected} px WebP copy, under 100 kB`, async ({
      browser,
      baseURL,
    }) => {
      const context = await browser.newContext({
        baseURL,
        viewport: { width, height: 900 },
        deviceScaleFactor: scale,
      })
      const page = await context.newPage()
      const sizes = new Map<string, number>()
      page.on('response', async (response) => {
        if (response.url().endsWith('.webp'))
          sizes.set(new URL(response.url()).pathname, (await response.body()).length)
      })
      await page.goto('/sites')
      const photo = page.locator('main img[srcset]')
      await expect(photo).toHaveCount(1)
      await photo.scrollIntoViewIfNeeded()
      // naturalWidth is in CSS px (the copy's width over its density): currentSrc names the copy.
      await expect
        .poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.currentSrc))
        .toBeTruthy()
      const chosen = new URL(await photo.evaluate((img: HTMLImageElement) => img.currentSrc)).pathname
      expect(chosen).toMatch(new RegExp(`-${expected}w\\.webp$`))
      await expect.poll(() => sizes.get(chosen)).toBeLessThan(100_000)
      // Only the copy it shows: the 1200 px one is never fetched as well.
      expect([...sizes.keys()]).toEqual([chosen])
      await context.close()
    })
})
