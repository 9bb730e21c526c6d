import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { settings } from './content'
import { fillContactForm } from './forms'

const fill = (page: Page) =>
  fillContactForm(page, {
    firstName: 'Sam',
    lastName: 'Patel',
    email: 'sam@example.co.uk',
    phone: '07700 900123',
    automation: 'Quotes and reminders',
  })

test('the contact form posts JSON to the webhook and confirms', async ({ page }) => {
  let body: unknown
  await page.route(`**${settings.contactWebhookUrl}`, async (route) => {
    body = route.request().postDataJSON()
    await route.fulfill({ status: 200, body: '' })
  })
  await page.goto('/#contact')
  await page.waitForLoadState('networkidle')
  // The notices' code (react-toastify, which injects its own stylesheet) is not part of the page:
  // it is fetched once the visitor is in the form, before they send it.
  const toastifyStyles = () =>
    page.evaluate(
      () =>
        [...document.querySelectorAll('style')].filter((s) => s.textContent?.includes('.Toastify')).length,
    )
  expect(await toastifyStyles()).toBe(0)
  const chunks: string[] = []
  page.on('request', (sent) => {
    if (sent.url().includes('/_next/static/chunks/')) chunks.push(sent.url())
  })
  const form = await fill(page)
  await expect.poll(() => chunks.length).toBeGreaterThan(0)
  await form.getByRole('button', { name: 'Send Message' }).click()
  await expect(page.getByText('Message Sent!')).toBeVisible()
  expect(await toastifyStyles()).toBe(1)
  expect(body).toEqual({
    firstName: 'Sam',
    lastName: 'Patel',
    email: 'sam@example.co.uk',
    phone: '07700 900123',
    website: '',
    automation: 'Quotes and reminders',
  })
  await expect(form.getByLabel('First name')).toHaveValue('')
})

test('a failed submission shows the Error notice and keeps what was typed', async ({ page }) => {
  await page.route(`**${settings.contactWebhookUrl}`, (route) => route.fulfill({ status: 502, body: '' }))
  await page.goto('/#contact')
  const form = await fill(page)
  await form.getByRole('button', { name: 'Send Message' }).click()
  await expect(page.getByText('There was a problem sending your message. Please try again.')).toBeVisible()
  await expect(form.getByLabel('First name')).toHaveValue('Sam')
  await expect(form.getByLabel(/What would you like to automate/)).toHaveValue('Quotes and reminders')
})

test("when the notices' code cannot load (offline), a failed submission still keeps what was typed", async ({
  page,
}) => {
  const errors: Error[] = []
  page.on('pageerror', (error) => errors.push(error))
  await page.route(`**${settings.contactWebhookUrl}`, (route) => route.fulfill({ status: 502, body: '' }))
  await page.goto('/#contact')
  // Every script requested from now on fails, the notices' chunks included.
  await page.route('**/_next/static/chunks/**', (route) => route.abort())
  const form = await fill(page)
  await form.getByRole('button', { name: 'Send Message' }).click()
  await expect(form.getByRole('button', { name: 'Send Message' })).toBeEnabled()
  await expect(form.getByLabel('First name')).toHaveValue('Sam')
  await expect(form.getByLabel(/What would you like to automate/)).toHaveValue('Quotes and reminders')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible() // the page did not fall over
  expect(errors).toEqual([])
})
