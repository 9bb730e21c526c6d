import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'

/**
 * /studio as the e2e build has it: built without a Sanity project, so the page says
 * what to set instead of loading Sanity Studio (app/studio/[[...tool]], lib/studio.ts).
 */

/** Every script and stylesheet a page loads, with its size, once the network is quiet. */
async function assetsOf(page: Page, route: string) {
  const assets: { url: string; bytes: number; text: string }[] = []
  const pending: Promise<void>[] = []
  page.on('response', (response) => {
    const type = response.request().resourceType()
    if (type !== 'script' && type !== 'stylesheet') return
    pending.push(
      response.body().then(
        (body) => void assets.push({ url: response.url(), bytes: body.length, text: body.toString('utf8') }),
        () => undefined,
      ),
    )
  })
  await page.goto(route)
  await page.waitForLoadState('networkidle')
  await Promise.all(pending)
  return assets
}

const total = (assets: { bytes: number }[]) => assets.reduce((sum, asset) => sum + asset.bytes, 0)

test('without a project, /studio says what to set and how to rebuild', async ({ page }) => {
  await page.goto('/studio')
  await expect(page).toHaveTitle(/Sanity Studio/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Editing is not set up on this build')
  const steps = page.locator('main ol > li')
  await expect(steps).toHaveCount(3)
  await expect(steps.nth(0)).toContainText('SANITY_STUDIO_PROJECT_ID')
  await expect(steps.nth(0)).toContainText('SANITY_PROJECT_ID')
  await expect(steps.nth(1)).toContainText('npm run build')
  await expect(page.locator('main')).toContainText('npm run studio')
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/)
  // The Studio has a root layout of its own: none of the site's header, footer, splash
  // or skip link; the way back is the page's own link.
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0)
  await expect(page.locator('footer')).toHaveCount(0)
  await expect(page.getByRole('link', { name: 'Skip to content' })).toHaveCount(0)
  await expect(page.locator('main').getByRole('link', { name: /Return to Home/ })).toHaveAttribute(
    'href',
    '/',
  )
})

test('without a project, /studio loads no Studio code: no more script than the 404 page', async ({
  browser,
}) => {
  const studioPage = await browser.newPage()
  const studio = await assetsOf(studioPage, '/studio')
  const notFoundPage = await browser.newPage()
  const notFound = await assetsOf(notFoundPage, '/no-such-page')
  const scripts = (assets: typeof studio) => assets.filter((asset) => asset.url.endsWith('.js'))

  // Sanity Studio is megabytes of script; the notice page adds only its small loader.
  expect(total(scripts(studio)) - total(scripts(notFound))).toBeLessThan(20_000)
  // Markers of Sanity's code (its request tag, next-sanity's Studio layout, Sanity UI's font host).
  const sanityCode = /sanity\.studio|NextStudioLayout|design-system-static\.sanity\.io/
  expect(studio.filter((asset) => sanityCode.test(asset.text)).map((asset) => asset.url)).toEqual([])
  await Promise.all([studioPage.close(), notFoundPage.close()])
})

test('/studio is not in the sitemap', async ({ request }) => {
  expect(await (await request.get('/sitemap.xml')).text()).not.toContain('/studio')
})
