/** Filling the home page's contact form, as a visitor does. */
import type { Locator, Page } from '@playwright/test'

export type ContactValues = {
  firstName: string
  lastName: string
  email: string
  phone: string
  automation?: string
}

/** Fills the 'Get In Touch' form by its labels and returns the form. */
export async function fillContactForm(page: Page, values: ContactValues): Promise<Locator> {
  const form = page.locator('#contact form')
  await form.getByLabel('First name').fill(values.firstName)
  await form.getByLabel('Last name').fill(values.lastName)
  await form.getByLabel('Email').fill(values.email)
  await form.getByLabel('Phone').fill(values.phone)
  if (values.automation) await form.getByLabel(/What would you like to automate/).fill(values.automation)
  return form
}
