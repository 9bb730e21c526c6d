/**
 * Playwright's `test` for this site: every page starts as a later page of a visit
 * (the splash has been seen), so tests do not wait 2.2 s behind it, and with
 * JavaScript on, `page.goto` also waits until React has hydrated the page
 * (`html[data-hydrated]`): Next's scripts start only after the first paint
 * (site-build/defer-framework-scripts.ts), often after the load event. Tests of the splash itself
 * import from '@playwright/test' directly.
 */
import { test as base } from '@playwright/test'
import { HYDRATED_ATTRIBUTE } from '../../components/layout/HydratedMark'
import { SPLASH_SEEN_KEY } from '../../lib/splash'

export const test = base.extend({
  // Playwright's fixture callback is named `use`, which the React hooks lint rule mistakes for React's.
  page: async ({ page, javaScriptEnabled }, provide) => {
    await page.addInitScript((key) => sessionStorage.setItem(key, '1'), SPLASH_SEEN_KEY)
    if (javaScriptEnabled !== false) {
      const goto = page.goto.bind(page)
      page.goto = async (url, options) => {
        const response = await goto(url, options)
        // Only Next's pages hydrate: they carry its inline RSC payload (`self.__next_f`);
        // the static booking stand-in or a JSON file do not.
        if (await page.evaluate(() => '__next_f' in self))
          await page.locator(`html[${HYDRATED_ATTRIBUTE}]`).waitFor({ state: 'attached' })
        return response
      }
    }
    await provide(page)
  },
})
export { expect } from '@playwright/test'
