/**
 * The contact form's honeypot (lib/contact.ts HONEYPOT_FIELD) against the real
 * server and its inbox: a person filling the visible fields is stored; a
 * submission with the honeypot filled is answered as a success and not stored,
 * with JavaScript (the form sends nothing) and without (the browser posts it).
 */
import { expect, test } from './fixtures'
import { fillContactForm } from './forms'
import { storedContacts } from './server'

const HONEYPOT = 'input[name="fax"]'

const person = (lastName: string) => ({
  firstName: 'Priya',
  lastName,
  email: 'priya@example.co.uk',
  phone: '07700 900789',
  automation: 'Appointment reminders',
})

test('a person filling the visible fields is stored; the honeypot is out of their way', async ({ page }) => {
  const lastName = `Person-${Date.now()}`
  await page.goto('/#contact')
  const form = await fillContactForm(page, person(lastName))
  // Not in the accessibility tree, off-screen, and Tab skips it.
  await expect(form.getByRole('textbox', { name: /fax/i })).toHaveCount(0)
  const box = await form.locator(HONEYPOT).boundingBox()
  expect(box!.x + box!.width).toBeLessThan(0)
  await form.getByLabel(/Website/).focus()
  await page.keyboard.press('Tab')
  await expect(form.getByLabel(/What would you like to automate/)).toBeFocused()

  await form.getByRole('button', { name: 'Send Message' }).click()
  await expect(page.getByText('Message Sent!')).toBeVisible()
  expect(storedContacts()).toContainEqual(expect.objectContaining({ firstName: 'Priya', lastName }))
  expect(storedContacts().find((entry) => entry.lastName === lastName)).not.toHaveProperty('fax')
})

test('a bot filling the honeypot sees Message Sent!, but nothing is sent or stored', async ({ page }) => {
  const lastName = `Bot-${Date.now()}`
  const posts: string[] = []
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(request.url())
  })
  await page.goto('/#contact')
  const form = await fillContactForm(page, person(lastName))
  await form.locator(HONEYPOT).fill('Acme Ltd')
  await form.getByRole('button', { name: 'Send Message' }).click()
  await expect(page.getByText('Message Sent!')).toBeVisible()
  await expect(form.getByLabel('First name')).toHaveValue('')
  expect(posts).toEqual([])
  expect(storedContacts()).not.toContainEqual(expect.objectContaining({ lastName }))
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('a bot posting the form with the honeypot filled comes back to /#contact, and is not stored', async ({
    page,
  }) => {
    const lastName = `NoScriptBot-${Date.now()}`
    await page.goto('/')
    const form = await fillContactForm(page, person(lastName))
    await form.locator(HONEYPOT).fill('Acme Ltd')
    await form.getByRole('button', { name: 'Send Message' }).click()
    await expect(page).toHaveURL(/\/#contact$/)
    expect(storedContacts()).not.toContainEqual(expect.objectContaining({ lastName }))
  })
})

test('posted directly, a filled honeypot gets the answers a stored entry gets (303 form, 200 JSON)', async ({
  request,
}) => {
  const lastName = `DirectBot-${Date.now()}`
  const form = await request.post('/api/contact', {
    form: { ...person(lastName), website: '', fax: 'Acme Ltd' },
    maxRedirects: 0,
  })
  expect(form.status()).toBe(303)
  expect(form.headers().location).toBe('/#contact')
  const json = await request.post('/api/contact', { data: { ...person(lastName), website: '', fax: 'Acme' } })
  expect(json.status()).toBe(200)
  expect(await json.json()).toEqual({ status: 'received' })
  expect(storedContacts()).not.toContainEqual(expect.objectContaining({ lastName }))
})
