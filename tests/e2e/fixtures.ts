/**
 * Playwright's `test` for this site: every page starts as a later page of a visit
 * (the splash has been seen), so tests do not wait 2.2 s behind it. Tests of the
 * splash itself import from '@playwright/test' directly.
 */
import { test as base } from '@playwright/test'
import { SPLASH_SEEN_KEY } from '../../lib/splash'

export const test = base.extend({
  // Playwright's fixture callback is named `use`, which the React hooks lint rule mistakes for React's.
  page: async ({ page }, provide) => {
    await page.addInitScript((key) => sessionStorage.setItem(key, '1'), SPLASH_SEEN_KEY)
    await provide(page)
  },
})
export { expect } from '@playwright/test'
