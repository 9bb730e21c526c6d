import AxeBuilder from '@axe-core/playwright'
import { expect, test } from './fixtures'
import { SAMPLE_ROUTES as routes } from './content'

for (const route of routes) {
  for (const width of [1280, 390]) {
    test(`${route} at ${width} px has no axe violations (WCAG 2.2 A/AA)`, async ({ page }) => {
      // axe walks every node of the page; the home page's run alone takes 10-25 s on a loaded 2-core machine.
      test.setTimeout(90_000)
      await page.setViewportSize({ width, height: 900 })
      await page.goto(route)
      const results = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
        // The booking widget is a third party's page, audited by its provider.
        .exclude('iframe')
        .analyze()
      const summary = results.violations.map((violation) => ({
        rule: violation.id,
        targets: violation.nodes.map((node) => node.target.join(' ')),
      }))
      expect(summary).toEqual([])
      expect(results.passes.length).toBeGreaterThan(10)
    })
  }
}
