import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import handler from 'serve-handler'
import { SAMPLE_ROUTES } from './content'
import { fillContactForm } from './forms'
import { storedContacts } from './server'

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

test('legacy case-study ids with spaces resolve on an ordinary static server that decodes URLs', async () => {
  // serve-handler (the core of Vercel's `serve`) decodes the path and looks the file up by its name.
  const server = http.createServer((request, response) =>
    handler(request, response, { public: 'out', cleanUrls: true }),
  )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  try {
    for (const id of [
      'Osteopath%20Lancing',
      'Um%20Al%20Hayaa',
      'How-I-Saved-40-Hours',
      'osteopath-lancing',
    ]) {
      const response = await fetch(`http://127.0.0.1:${port}/case-studies/${id}`)
      expect([id, response.status]).toEqual([id, 200])
    }
  } finally {
    server.close()
  }
})
