/**
 * Paint first (docs/speed.md, site-build/defer-framework-scripts.ts): the page paints from its HTML and
 * inline CSS before any of Next's scripts is requested, and it is usable before
 * it hydrates (the native menu works) and when its scripts never arrive.
 */
import { test as plain } from '@playwright/test'
import { SPLASH_SEEN_KEY } from '../../lib/splash'
import { expect, test } from './fixtures'

test('no stylesheet request, and no framework script is requested before the first contentful paint', async ({
  page,
}) => {
  for (const path of ['/', '/sites', '/case-studies', '/consultation', '/no-such-page']) {
    await page.goto(path)
    const timing = await page.evaluate(() => {
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[]
      return {
        fcp,
        scripts: resources
          // Started by a <script> or, when the payload is fetched first, by a preload <link>.
          .filter((entry) => /\/_next\/static\/.*\.js(\?|$)/.test(entry.name))
          .map((entry) => entry.startTime),
        stylesheets: resources.filter((entry) => /\.css(\?|$)/.test(entry.name)).length,
      }
    })
    expect(timing.fcp, path).toBeGreaterThan(0)
    expect(timing.scripts.length, path).toBeGreaterThan(0)
    expect(Math.min(...timing.scripts), path).toBeGreaterThanOrEqual(timing.fcp)
    expect(timing.stylesheets, path).toBe(0)
  }
})

test("the RSC payload is not inline: the page's .txt is fetched after the first paint, and the page hydrates", async ({
  page,
  request,
}) => {
  for (const [path, payload] of [
    ['/', '/index.txt'],
    ['/case-studies/osteopath-lancing', '/case-studies/osteopath-lancing.txt'],
  ] as const) {
    const html = await (await request.get(path)).text()
    expect(html, path).not.toContain('self.__next_f.push([1,')
    await page.goto(path) // the fixture waits for html[data-hydrated]
    const timing = await page.evaluate((url) => {
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN
      const entry = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find(
        (resource) => new URL(resource.name).pathname === url,
      )
      return { fcp, start: entry?.startTime ?? NaN }
    }, payload)
    expect(timing.start, path).toBeGreaterThanOrEqual(timing.fcp)
  }
})

test('the images above the fold are drawn inside the HTML: no request, no preload, every reference resolving', async ({
  page,
  request,
}) => {
  // A case study's own image; the first row of a desktop grid (INLINED_CARDS).
  for (const [path, inlined] of [
    ['/case-studies/osteopath-lancing', 1],
    ['/case-studies', 3],
    ['/sites', 3],
  ] as const) {
    const html = await (await request.get(path)).text()
    expect(html, path).not.toMatch(/<link[^>]+as="image"/)
    const media: string[] = []
    page.on('request', (sent) => {
      if (new URL(sent.url()).pathname.startsWith('/media/')) media.push(sent.url())
    })
    await page.goto(path)
    const images = page.locator('main').getByRole('img')
    const drawings = await images.evaluateAll((elements) =>
      elements
        .filter((element) => element.tagName === 'svg')
        .map((svg) => {
          const box = svg.getBoundingClientRect()
          const ids = [...svg.querySelectorAll('[id]')].map((element) => element.id)
          // url(#id) and href="#id" inside the drawing must find their target in it.
          const references = [...svg.querySelectorAll('*')].flatMap((element) =>
            [...element.attributes].flatMap((attribute) =>
              attribute.name === 'href'
                ? [attribute.value.slice(1)]
                : [...attribute.value.matchAll(/url\(#([^)]+)\)/g)].map((match) => match[1]),
            ),
          )
          return {
            name: svg.getAttribute('aria-label'),
            // Sized like the <img> it replaces: the intrinsic 3:2, unless the slot caps its height.
            heightOff:
              box.height - Math.min(box.width / 1.5, parseFloat(getComputedStyle(svg).maxHeight) || Infinity),
            shapes: svg.querySelectorAll('rect, path, circle, text').length,
            // As in an <img>: the page's font and colour do not reach the drawing.
            font: getComputedStyle(svg).fontFamily,
            color: getComputedStyle(svg).color,
            ids,
            unresolved: references.filter((id) => document.getElementById(id!)?.closest('svg') !== svg),
          }
        }),
    )
    expect(drawings, path).toHaveLength(inlined)
    for (const drawing of drawings) {
      expect(drawing.name, path).toBeTruthy()
      expect(Math.abs(drawing.heightOff), path).toBeLessThan(1)
      expect(drawing.shapes, path).toBeGreaterThan(10)
      expect(drawing.font, path).not.toMatch(/jakarta/i)
      expect(drawing.color, path).toBe('rgb(0, 0, 0)')
      expect(drawing.ids.length, path).toBeGreaterThan(0)
      expect(drawing.unresolved, path).toEqual([])
    }
    // Drawings that came with the same ids (the seed's all have "sh", "bg", ...) no longer share one.
    const ids = drawings.flatMap((drawing) => drawing.ids)
    expect(new Set(ids).size, path).toBe(ids.length)
    // Cards further down keep their own files (loaded lazily, cached across pages).
    const rest = await page
      .locator('main img')
      .evaluateAll((imgs) => imgs.map((img) => img.getAttribute('src')))
    for (const src of rest) expect(src, path).toMatch(/^\/media\//)
    expect(media.length, path).toBeLessThanOrEqual(rest.length)
    page.removeAllListeners('request')
  }
})

test('a page reached by client-side navigation draws its inlined images too (React sets their markup)', async ({
  page,
}) => {
  await page.goto('/case-studies')
  await page.evaluate(() => ((window as unknown as { beforeNavigation: boolean }).beforeNavigation = true))
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Sites', exact: true })
    .click()
  await expect(page).toHaveURL(/\/sites$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Our Portfolio' })).toBeVisible()
  // Still the same document: Next rendered /sites in the browser.
  expect(
    await page.evaluate(() => (window as unknown as { beforeNavigation?: boolean }).beforeNavigation),
  ).toBe(true)
  const drawn = await page
    .locator('main svg[data-inline-image]')
    .evaluateAll((svgs) =>
      svgs.map((svg) => [...svg.querySelectorAll('rect')].filter((rect) => rect.getBBox().width > 0).length),
    )
  expect(drawn).toHaveLength(3)
  for (const rects of drawn) expect(rects).toBeGreaterThan(5)
})

plain.describe('before React hydrates (its scripts never arrive)', () => {
  plain.use({ viewport: { width: 390, height: 844 } })

  plain('the page is styled and the native menu opens and follows its links', async ({ page }) => {
    await page.addInitScript((key) => sessionStorage.setItem(key, '1'), SPLASH_SEEN_KEY)
    await page.route('**/_next/static/chunks/*.js', (route) => route.abort())
    await page.goto('/')
    await expect(page.locator('html')).not.toHaveAttribute('data-hydrated')
    await expect(page.locator('#hero-heading')).toHaveCSS('font-weight', '800')
    const menu = page.getByRole('navigation', { name: 'Main' }).locator('details:visible')
    await menu.locator('summary').click()
    await menu.getByRole('link', { name: 'Sites' }).click()
    await expect(page).toHaveURL(/\/sites$/)
  })
})
