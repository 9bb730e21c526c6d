/**
 * The site font (issue 9 §2, app/fonts.ts): every page preloads the small core
 * face and draws its text with it; the extended face is fetched only by a page
 * whose text needs a character the core lacks, and then draws that character.
 */
import { test as firstVisit, type Page } from '@playwright/test'
import { expect, test } from './fixtures'

/** The woff2 files the page fetched, by face: `core` or `extended`. */
async function fontRequests(page: Page) {
  const names = await page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .map((entry) => entry.name)
      .filter((name) => name.endsWith('.woff2')),
  )
  return {
    core: names.filter((name) => name.includes('plus_jakarta_sans_core')),
    extended: names.filter((name) => name.includes('plus_jakarta_sans_extended')),
  }
}

// A first visit, so the splash (its counter is padded with U+2007) is drawn too.
firstVisit(
  'home, first visit: the core face is preloaded and used; the extended face is not fetched',
  async ({ page }) => {
    await page.goto('/')
    await expect(page.locator('.splash')).toBeVisible()
    await expect(page.locator('link[rel="preload"][as="font"]')).toHaveCount(1)
    await expect(page.locator('link[rel="preload"][as="font"]')).toHaveAttribute(
      'href',
      /plus_jakarta_sans_core/,
    )
    await page.evaluate(() => document.fonts.ready)
    const requests = await fontRequests(page)
    expect(requests.core).toHaveLength(1)
    expect(requests.extended).toEqual([])
    // Faces load only when text uses them: the page's text is drawn with the core face alone.
    const loaded = await page.evaluate(() =>
      [...document.fonts]
        .filter((face) => face.status === 'loaded')
        .map((face) => face.family.replace(/"/g, '')),
    )
    expect(loaded).toEqual(['jakarta'])
  },
)

test('a page with an accented letter fetches the extended face for it', async ({ page }) => {
  await page.goto('/sites')
  // The seed's portfolio has "é"; the core face does not cover it.
  await expect(page.getByText(/é/).first()).toBeVisible()
  await page.evaluate(() => document.fonts.ready)
  const requests = await fontRequests(page)
  expect(requests.core).toHaveLength(1)
  expect(requests.extended).toHaveLength(1)
  const loaded = await page.evaluate(() =>
    [...document.fonts]
      .filter((face) => face.status === 'loaded')
      .map((face) => face.family.replace(/"/g, '')),
  )
  expect(loaded.sort()).toEqual(['jakarta', 'jakartaExtended'])
})
