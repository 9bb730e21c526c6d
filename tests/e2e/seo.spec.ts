import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { documentsOf } from './content'

/**
 * Findable (docs/content.md, "Search and sharing"): titles, descriptions, canonical URLs,
 * share cards, icons, JSON-LD, sitemap.
 */

const [siteSettings] = documentsOf('siteSettings') as unknown as {
  siteUrl: string
  brandName: string
  contactEmail: string
}[]
const siteUrl = siteSettings!.siteUrl
const studies = documentsOf('caseStudy') as unknown as {
  slug: { current: string }
  legacyId: string
  detailTitle: string
  _updatedAt?: string
}[]
const faqs = documentsOf('faq') as unknown as { question: string; answer: string }[]

/**
 * Every exported page and the canonical path it must declare: one page per case study, at
 * its slug (a legacy id is a permanent redirect to it, below).
 */
const pages: { path: string; canonical: string }[] = [
  { path: '/', canonical: '/' },
  { path: '/consultation', canonical: '/consultation' },
  { path: '/case-studies', canonical: '/case-studies' },
  { path: '/sites', canonical: '/sites' },
  ...studies.map(({ slug }) => ({
    path: `/case-studies/${slug.current}`,
    canonical: `/case-studies/${slug.current}`,
  })),
]

/** The page's JSON-LD blocks, parsed (a block that is not JSON fails the test). */
async function jsonLd(page: Page): Promise<Record<string, unknown>[]> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents()
  return blocks.map((text) => JSON.parse(text) as Record<string, unknown>)
}

// The exported HTML itself, as a crawler reads it.
test.use({ javaScriptEnabled: false })

for (const { path, canonical } of pages) {
  test(`${path}: title, description, canonical, share card and organisation JSON-LD`, async ({
    page,
    request,
  }) => {
    await page.goto(path)
    const title = await page.title()
    expect(title).toContain(siteSettings!.brandName)
    const description = await page.locator('meta[name="description"]').getAttribute('content')
    expect(description?.length).toBeGreaterThan(30)
    expect(description!.length).toBeLessThanOrEqual(160)

    const canonicalHref = await page.locator('link[rel="canonical"]').getAttribute('href')
    expect(new URL(canonicalHref!).href).toBe(new URL(canonical, siteUrl).href)
    await expect(page.locator('meta[property="og:url"]')).toHaveAttribute('content', canonicalHref!)
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', title)
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image')

    const ogImage = await page.locator('meta[property="og:image"]').getAttribute('content')
    expect(ogImage).toMatch(new RegExp(`^${siteUrl}/og/[a-z0-9-]+\\.png$`))
    await expect(page.locator('meta[name="twitter:image"]')).toHaveAttribute('content', ogImage!)
    await expect(page.locator('meta[property="og:image:width"]')).toHaveAttribute('content', '1200')
    await expect(page.locator('meta[property="og:image:height"]')).toHaveAttribute('content', '630')
    // The card is served by this site (the tag names the production host).
    const image = await request.get(new URL(ogImage!).pathname)
    expect(image.status()).toBe(200)
    expect(image.headers()['content-type']).toBe('image/png')
    const png = await image.body()
    expect(png.subarray(1, 4).toString()).toBe('PNG')
    expect(png.readUInt32BE(16)).toBe(1200)
    expect(png.readUInt32BE(20)).toBe(630)
    // A 256-colour palette PNG (components/og/OgCard.tsx): 28 to 36 kB with the seed;
    // resvg's own full-colour PNG was 85 to 97 kB.
    expect(png[25]).toBe(3) // IHDR colour type 3: indexed colour
    expect(png.length).toBeLessThan(50 * 1024)

    const organisation = (await jsonLd(page)).find((data) => data['@type'] === 'ProfessionalService')
    expect(organisation).toMatchObject({
      '@context': 'https://schema.org',
      name: siteSettings!.brandName,
      url: new URL('/', siteUrl).href,
      contactPoint: { '@type': 'ContactPoint', email: siteSettings!.contactEmail },
    })
  })
}

test('home page: FAQPage JSON-LD holds every FAQ', async ({ page }) => {
  await page.goto('/')
  const faqPage = (await jsonLd(page)).find((data) => data['@type'] === 'FAQPage')
  expect(faqPage).toMatchObject({
    '@context': 'https://schema.org',
    mainEntity: faqs.map((faq) => ({
      '@type': 'Question',
      name: faq.question,
      acceptedAnswer: { '@type': 'Answer', text: faq.answer },
    })),
  })
})

test('case study pages: Article JSON-LD at the slug’s address, where a legacy id redirects', async ({
  page,
}) => {
  for (const study of studies) {
    for (const path of [
      `/case-studies/${study.slug.current}`,
      `/case-studies/${encodeURIComponent(study.legacyId)}`,
    ]) {
      const response = await page.goto(path)
      // A legacy id: a permanent redirect, which moves the address's standing to the slug's page.
      if (path !== `/case-studies/${study.slug.current}`)
        expect((await response?.request().redirectedFrom()?.response())?.status()).toBe(301)
      expect(new URL(page.url()).pathname).toBe(`/case-studies/${study.slug.current}`)
      const article = (await jsonLd(page)).find((data) => data['@type'] === 'Article')
      expect(article).toMatchObject({
        '@context': 'https://schema.org',
        headline: study.detailTitle,
        url: new URL(`/case-studies/${study.slug.current}`, siteUrl).href,
        publisher: { name: siteSettings!.brandName },
      })
      if (study._updatedAt) expect(article?.dateModified).toBe(study._updatedAt)
    }
  }
})

test('/favicon.ico, the SVG icon and the Apple touch icon are served', async ({ page, request }) => {
  const favicon = await request.get('/favicon.ico')
  expect(favicon.status()).toBe(200)
  expect(favicon.headers()['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/)
  await page.goto('/')
  for (const selector of ['link[rel="icon"][type="image/svg+xml"]', 'link[rel="apple-touch-icon"]']) {
    const href = await page.locator(selector).getAttribute('href')
    const icon = await request.get(href!)
    expect(icon.status(), selector).toBe(200)
    expect(icon.headers()['content-type']).toMatch(/^image\//)
  }
})

test('sitemap.xml gives every page a <lastmod> from its documents; robots.txt keeps crawlers out of /studio', async ({
  request,
}) => {
  const sitemap = await (await request.get('/sitemap.xml')).text()
  const entries = [...sitemap.matchAll(/<url>([\s\S]*?)<\/url>/g)].map(([, body]) => body!)
  expect(entries.length).toBe(4 + studies.length)
  for (const entry of entries) expect(entry).toMatch(/<lastmod>\d{4}-\d\d-\d\dT[\d:.]+Z?<\/lastmod>/)
  for (const study of studies.filter((s) => s._updatedAt)) {
    const entry = entries.find((body) => body.includes(`/case-studies/${study.slug.current}</loc>`))
    const lastmod = /<lastmod>(.*)<\/lastmod>/.exec(entry!)![1]!
    expect(Date.parse(lastmod)).toBeGreaterThanOrEqual(Date.parse(study._updatedAt!))
  }
  const robots = await (await request.get('/robots.txt')).text()
  expect(robots).toMatch(/^Disallow: \/studio$/m)
})
