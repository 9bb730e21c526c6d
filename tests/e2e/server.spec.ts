import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import handler from 'serve-handler'
import { documentsOf, SAMPLE_ROUTES } from './content'
import { fillContactForm } from './forms'
import { storedContacts } from './server'

type CaseStudy = { slug: { current: string }; legacyId: string; detailTitle: string }
const siteUrl = String(documentsOf('siteSettings')[0]!.siteUrl)

/** Content-Security-Policy violations the page reports, collected from the start of every document. */
async function watchPolicy(page: Page) {
  const violations: string[] = []
  await page.exposeFunction('__reportViolation', (text: string) => violations.push(text))
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportViolation: (text: string) => void }).__reportViolation
      report(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'} on ${location.pathname}`)
    })
  })
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
  })
  return violations
}

test('every route runs under its Content-Security-Policy with no violation, also after client navigation', async ({
  page,
}) => {
  const violations = await watchPolicy(page)
  for (const route of SAMPLE_ROUTES) {
    const response = await page.goto(route)
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self' 'sha256-")
    await page.waitForLoadState('networkidle')
  }
  await page.goto('/')
  await page.getByRole('link', { name: 'See All Case Studies' }).click()
  await expect(page).toHaveURL(/\/case-studies$/)
  await page.locator('main article h2 a').first().click()
  await expect(page).toHaveURL(/\/case-studies\/[a-z0-9-]+$/)
  await expect(page.locator('main h1')).toBeVisible()
  expect(violations).toEqual([])
})

test('pages go out precompressed with revalidation; hashed scripts are immutable', async ({ request }) => {
  const home = await request.get('/', { headers: { 'accept-encoding': 'br' } })
  expect(home.headers()['content-encoding']).toBe('br')
  expect(home.headers()['cache-control']).toBe('public, max-age=0, must-revalidate')
  const script = (await home.text()).match(/src="(\/_next\/static\/[^"]+\.js)"/)?.[1]
  expect(script).toBeTruthy()
  const asset = await request.get(script!, { headers: { 'accept-encoding': 'gzip' } })
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable')
  expect(asset.headers()['content-encoding']).toBe('gzip')
})

test("the embedded default's contact form lands in the local inbox", async ({ page }) => {
  const lastName = `Inbox-${Date.now()}`
  await page.goto('/#contact')
  const form = await fillContactForm(page, {
    firstName: 'Sam',
    lastName,
    email: 'sam@example.co.uk',
    phone: '07700 900123',
  })
  await form.getByRole('button', { name: 'Send Message' }).click()
  await expect(page.getByText('Message Sent!')).toBeVisible()
  expect(storedContacts()).toContainEqual(
    expect.objectContaining({ firstName: 'Sam', lastName, phone: '07700 900123' }),
  )
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the browser posts the form itself and comes back to /#contact', async ({ page }) => {
    const lastName = `NoScript-${Date.now()}`
    await page.goto('/')
    const form = await fillContactForm(page, {
      firstName: 'Ada',
      lastName,
      email: 'ada@example.co.uk',
      phone: '07700 900456',
    })
    await form.getByRole('button', { name: 'Send Message' }).click()
    await expect(page).toHaveURL(/\/#contact$/)
    expect(storedContacts()).toContainEqual(expect.objectContaining({ firstName: 'Ada', lastName }))
  })
})

test.describe('on an ordinary static server, which reads no _redirects', () => {
  // The small page's refresh is HTML, not a script: it works without JavaScript.
  test.use({ javaScriptEnabled: false })

  test("a legacy case-study id answers its small page, which takes the browser to the slug's page", async ({
    page,
  }) => {
    // serve-handler (the core of Vercel's `serve`) decodes the path and looks the file up by its name.
    const server = http.createServer((request, response) =>
      handler(request, response, { public: 'out', cleanUrls: true }),
    )
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const origin = `http://127.0.0.1:${port}`
    try {
      for (const study of documentsOf('caseStudy') as unknown as CaseStudy[]) {
        const slugPath = `/case-studies/${study.slug.current}`
        expect((await fetch(`${origin}${slugPath}`)).status).toBe(200)
        if (study.legacyId === study.slug.current) continue
        const address = `/case-studies/${encodeURIComponent(study.legacyId)}`
        const response = await fetch(`${origin}${address}`)
        expect([address, response.status]).toEqual([address, 200])
        const html = await response.text()
        expect(html).toContain(`<meta http-equiv="refresh" content="0; url=${slugPath}">`)
        expect(html).toContain(`<link rel="canonical" href="${new URL(slugPath, siteUrl).href}">`)
        await page.goto(`${origin}${address}`)
        await expect(page).toHaveURL(`${origin}${slugPath}`)
        await expect(page.getByRole('heading', { level: 1, name: study.detailTitle })).toBeVisible()
      }
    } finally {
      server.close()
    }
  })
})
