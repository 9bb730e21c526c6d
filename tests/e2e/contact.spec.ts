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
  // The notices' code (react-toastify, which injects its own stylesheet) waits for the first submit.
  const toastifyStyles = () =>
    page.evaluate(
      () =>
        [...document.querySelectorAll('style')].filter((s) => s.textContent?.includes('.Toastify')).length,
    )
  expect(await toastifyStyles()).toBe(0)
  const form = await fill(page)
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
