import { expect, test } from './fixtures'
import { documentsOf, settings } from './content'

const caseStudies = documentsOf('caseStudy') as unknown as {
  title: string
  detailTitle: string
  slug: { current: string }
  legacyId: string
  details: string[]
}[]

test.describe('every route loads with its key content', () => {
  test('home: hero texts and the nine sections in the spec order', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByRole('heading', { level: 1, name: settings.heroHeadline })).toBeVisible()
    await expect(page.getByText(settings.heroEyebrow)).toBeVisible()
    await expect(page.getByText(settings.heroSubheadline)).toBeVisible()
    await expect(page.getByRole('link', { name: 'Book a Free Consultation Now' }).first()).toBeVisible()

    const ids = await page.locator('main section[id]').evaluateAll((sections) => sections.map((s) => s.id))
    expect(ids).toEqual(['homepage', 'services', 'who-needs-it', 'faq', 'reviews', 'contact'])
    await expect(page.locator('footer')).toContainText('2025')
    await expect(page.locator('footer')).toContainText(settings.contactEmail)
    await expect(page.locator('footer')).toContainText(settings.contactPhone)
  })

  test('home: services, audience, growth list, case studies, FAQs, reviews, contact form', async ({
    page,
  }) => {
    await page.goto('/')
    for (const service of documentsOf('service'))
      await expect(
        page.locator('#services').getByRole('heading', { name: String(service.title) }),
      ).toBeVisible()
    await expect(page.getByRole('heading', { name: 'IS THIS YOU' })).toBeVisible()
    for (const card of documentsOf('audienceCard'))
      await expect(
        page.locator('#who-needs-it').getByRole('heading', { name: String(card.title) }),
      ).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Less Grind. More Growth' })).toBeVisible()
    await expect(page.locator('details[name="growth"]')).toHaveCount(3)
    await expect(page.getByRole('button', { name: 'Calculate' })).toBeVisible()
    for (const study of caseStudies)
      await expect(page.getByRole('link', { name: study.title })).toHaveAttribute(
        'href',
        `/case-studies/${study.slug.current}`,
      )
    await expect(page.getByRole('link', { name: 'See All Case Studies' })).toHaveAttribute(
      'href',
      '/case-studies',
    )
    for (const faq of documentsOf('faq'))
      await expect(page.locator('#faq')).toContainText(String(faq.question))
    await expect(page.locator('#reviews figure')).toHaveCount(4)
    await expect(page.getByRole('link', { name: 'See More Like This' })).toHaveAttribute(
      'href',
      '/case-studies',
    )
    await expect(page.getByRole('heading', { name: 'Get In Touch' })).toBeVisible()
    for (const label of ['First name', 'Last name', 'Email', 'Phone'])
      await expect(page.locator('#contact').getByLabel(label, { exact: true })).toHaveAttribute(
        'required',
        '',
      )
  })

  test('home: the reviews strip holds five reviews, drawn twice for the loop', async ({ page }) => {
    await page.goto('/')
    const strip = page.getByRole('region', { name: 'What our clients say' })
    await expect(strip.locator('figure')).toHaveCount(10)
    await expect(strip.locator('ul[aria-hidden="true"] figure')).toHaveCount(5)
  })

  test('/consultation: heading, booking widget at least 800 px high, link to case studies', async ({
    page,
  }) => {
    await page.goto('/consultation')
    await expect(page.getByRole('heading', { level: 1, name: 'Free Consultation' })).toBeVisible()
    const frame = page.locator('iframe')
    await expect(frame).toHaveAttribute('src', settings.bookingWidgetUrl)
    expect((await frame.boundingBox())?.height).toBeGreaterThanOrEqual(800)
    await expect(page.locator('main').getByRole('link', { name: /case studies/i })).toHaveAttribute(
      'href',
      '/case-studies',
    )
  })

  test('/case-studies: a card per case study with a 120-character issue preview', async ({ page }) => {
    await page.goto('/case-studies')
    await expect(page.getByRole('heading', { level: 1, name: 'Case Studies' })).toBeVisible()
    const cards = page.locator('main article')
    await expect(cards).toHaveCount(caseStudies.length)
    for (const card of await cards.all()) {
      await expect(card).toContainText('Read case study')
      const preview = (await card.locator('p').first().textContent()) ?? ''
      expect(preview.endsWith('…')).toBe(true)
      expect(Array.from(preview).length).toBeLessThanOrEqual(121)
      // An <img>, or for the first row's cards an inlined <svg> (lib/content/inline-svg.ts).
      expect(await card.getByRole('img').getAttribute('width')).toBeTruthy()
    }
    await expect(
      page.locator('main').getByRole('link', { name: 'Book a Free Consultation Now' }),
    ).toHaveAttribute('href', '/consultation')
  })

  for (const study of caseStudies) {
    test(`/case-studies/${study.slug.current}: the three boxes and ${study.details.length} steps`, async ({
      page,
    }) => {
      await page.goto(`/case-studies/${study.slug.current}`)
      await expect(page.getByRole('heading', { level: 1, name: study.detailTitle })).toBeVisible()
      for (const box of ['The Issue', 'Our Solution', 'The Outcome'])
        await expect(page.getByRole('heading', { name: box })).toBeVisible()
      await expect(page.getByRole('heading', { name: 'How We Did It' })).toBeVisible()
      await expect(page.locator('main ol > li')).toHaveCount(study.details.length)
      await expect(page.locator('main ol > li').first()).toContainText(study.details[0]!)
      await expect(
        page.locator('main').getByRole('link', { name: 'Book a Free Consultation Now' }),
      ).toBeVisible()
    })

    // One page per case study: an old link is a permanent redirect to it (site-build/redirects-file.ts).
    test(`old link /case-studies/${study.legacyId} redirects to the case study's page`, async ({
      page,
      request,
    }) => {
      test.skip(study.legacyId === study.slug.current, 'its legacy id is its slug: no old link')
      const address = `/case-studies/${encodeURIComponent(study.legacyId)}`
      const slugPath = `/case-studies/${study.slug.current}`
      const answer = await request.get(address, { maxRedirects: 0 })
      expect([answer.status(), answer.headers()['location']]).toEqual([301, slugPath])
      const response = await page.goto(address)
      expect(response?.status()).toBe(200)
      expect(new URL(page.url()).pathname).toBe(slugPath)
      await expect(page.getByRole('heading', { level: 1, name: study.detailTitle })).toBeVisible()
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`${slugPath}$`))
    })
  }

  test('/sites: Our Portfolio, six sites opening in a new tab', async ({ page }) => {
    await page.goto('/sites')
    await expect(page.getByRole('heading', { level: 1, name: 'Our Portfolio' })).toBeVisible()
    const sites = documentsOf('portfolioSite')
    const links = page.getByRole('link', { name: /^Visit site/ })
    await expect(links).toHaveCount(sites.length)
    for (const [index, site] of sites.entries()) {
      await expect(links.nth(index)).toHaveAttribute('href', String(site.url))
      await expect(links.nth(index)).toHaveAttribute('target', '_blank')
    }
  })
})

test.describe('missing pages', () => {
  test('an unknown path is the 404 page with status 404, and its path is logged', async ({ page }) => {
    const logged: string[] = []
    page.on('console', (message) => logged.push(message.text()))
    const response = await page.goto('/no-such-page')
    expect(response?.status()).toBe(404)
    await expect(page.getByRole('heading', { name: '404' })).toBeVisible()
    await expect(page.getByText('Oops! Page not found')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/')
    await expect.poll(() => logged.some((line) => line.includes('/no-such-page'))).toBe(true)
  })

  test('an unknown case study says so, with status 404', async ({ page }) => {
    const response = await page.goto('/case-studies/no-such-study')
    expect(response?.status()).toBe(404)
    await expect(page.getByText('Case study not found.')).toBeVisible()
  })
})
