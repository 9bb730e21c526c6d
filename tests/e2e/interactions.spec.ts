import { deferredScriptsOf } from '../../site-build/defer-framework-scripts'
import { DEFERRED_SECTION_CLASS, RENDERED_ATTRIBUTE } from '../../lib/scroll'
import { test as plain } from '@playwright/test'
import { expect, test } from './fixtures'
import { HYDRATED_ATTRIBUTE } from '../../components/layout/HydratedMark'

const headerBottom = async (page: import('@playwright/test').Page) =>
  (await page.locator('header').first().boundingBox())!.height

/**
 * Hydrates a page whose clock is paused, without moving it: Next's loader starts the scripts
 * from a 0 ms timer after the first paint, which may come after any one look, so each look
 * fires the timers that are due now.
 */
const hydrateOnPausedClock = (page: import('@playwright/test').Page) =>
  expect
    .poll(async () => {
      await page.clock.runFor(0)
      return page.locator(`html[${HYDRATED_ATTRIBUTE}]`).count()
    })
    .toBe(1)

plain.describe('loading splash (spec §1, §4, §9)', () => {
  plain(
    'shows on the first load of a visit over the painted page, counts up, and is gone by 2.2 s',
    async ({ page }) => {
      await page.addInitScript(() => {
        const shifts: number[] = []
        ;(window as unknown as { shifts: number[] }).shifts = shifts
        type Shift = { value: number; sources: { node?: Node | null }[] }
        const inSplash = (node?: Node | null) =>
          Boolean((node instanceof Element ? node : node?.parentElement)?.closest('.splash'))
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as unknown as Shift[])
            if (entry.sources.some((source) => inSplash(source.node))) shifts.push(entry.value)
        }).observe({ type: 'layout-shift', buffered: true })
      })
      // The page's clock stands still from its first tick until the test moves it: a busy machine
      // cannot spend the splash's 2.2 s before the test looks. (pauseAt alone: after a separate
      // install, a new page replays the real time between the two calls.)
      await page.clock.pauseAt(new Date('2030-01-01'))
      await page.goto('/')
      const splash = page.getByText('Greatness Awaits')
      const counter = page.getByText(/^\s*\d{1,3}%$/)
      await expect(splash).toBeVisible()
      // The page is already there behind it (rendered HTML, not waiting for the splash).
      await expect(page.locator('main h1')).toBeAttached()
      await expect(counter).toHaveText(/^\s*0%$/)
      await hydrateOnPausedClock(page)
      await page.clock.runFor(1001)
      // 1001 ms in: +1 every 20 ms.
      await expect(counter).toHaveText(/^\s*50%$/)
      await page.clock.runFor(1100)
      await expect(counter).toHaveText(/^100%$/)
      await expect(splash).toBeAttached()
      await page.clock.runFor(100)
      await expect(splash).not.toBeAttached()
      expect(await page.evaluate(() => performance.now())).toBeGreaterThanOrEqual(2200)
      await page.clock.resume()
      // Counting up and leaving moved nothing in the splash (its counter is padded to three digits).
      expect(await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts)).toEqual([])
      // Not on later pages of the visit, by link or by reload.
      await page.getByRole('link', { name: 'Sites', exact: true }).first().click()
      await expect(page).toHaveURL(/\/sites$/)
      await expect(page.getByText('Greatness Awaits')).not.toBeVisible()
      await page.reload()
      await expect(page.getByText('Greatness Awaits')).not.toBeVisible()
    },
  )

  plain("is drawn on the page's own paper, its words centred inside a phone's screen", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.clock.pauseAt(new Date('2030-01-01'))
    await page.goto('/')
    await expect(page.getByText('Greatness Awaits')).toBeVisible()
    const look = await page.evaluate(() => {
      const splash = document.querySelector('.splash')!
      const words = document.createRange()
      words.selectNodeContents(splash.querySelector('p')!)
      const { left, right } = words.getBoundingClientRect()
      return {
        splash: getComputedStyle(splash).backgroundColor,
        body: getComputedStyle(document.body).backgroundColor,
        left,
        right: innerWidth - right,
      }
    })
    // No dark screen before a light page (docs/speed.md: Speed Index compares colours).
    expect(look.splash).toBe(look.body)
    expect(look.left).toBeGreaterThanOrEqual(16)
    expect(look.right).toBeGreaterThanOrEqual(16)
    expect(Math.abs(look.left - look.right)).toBeLessThanOrEqual(2)
  })

  plain('under reduced motion it shows 100% without counting', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await page.clock.pauseAt(new Date('2030-01-01'))
    await page.goto('/')
    const counter = page.locator('.splash p').last()
    // 0% is the HTML before hydration; then 100% at once, never a number between.
    await expect(counter).toHaveText(/^\s*0%$/)
    await hydrateOnPausedClock(page)
    await page.clock.runFor(21)
    await expect(counter).toHaveText('100%')
    await page.clock.runFor(1000)
    await expect(counter).toHaveText('100%')
    await page.clock.runFor(1200)
    await expect(page.getByText('Greatness Awaits')).not.toBeAttached()
  })

  plain.describe('without JavaScript', () => {
    plain.use({ javaScriptEnabled: false })
    plain('there is no splash: the page is readable at once', async ({ page }) => {
      await page.goto('/')
      await expect(page.getByText('Greatness Awaits')).not.toBeVisible()
      await expect(page.locator('main h1')).toBeVisible()
    })
  })
})

test.describe('navigation bar on desktop (spec §2)', () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  test('a Menu of Home and the five anchors, and the three route buttons beside it', async ({ page }) => {
    await page.goto('/sites')
    const menu = page.getByRole('button', { name: 'Menu' })
    await expect(menu).toHaveAttribute('aria-expanded', 'false')
    for (const name of ['Case Studies', 'Sites', 'Free Consultation'])
      await expect(page.locator('header').getByRole('link', { name, exact: true })).toBeVisible()
    await menu.click()
    await expect(page.getByRole('menuitem')).toHaveText([
      'Home',
      'How We Can Help You',
      'Is This You',
      'FAQs',
      'Reviews',
      'Contact Us',
    ])
    await page.locator('main h1').click() // a click outside closes it
    await expect(page.getByRole('menu')).not.toBeVisible()
  })

  test("offline (the menu's code cannot load), the light menu still opens, lists the items and closes; back online, the next reach brings Headless UI", async ({
    page,
    request,
  }) => {
    const errors: Error[] = []
    page.on('pageerror', (error) => errors.push(error))
    // The page's own chunks load; any other (the menu's) fails until unrouted.
    const own = new Set(deferredScriptsOf(await (await request.get('/sites')).text()))
    await page.route('**/_next/static/chunks/**', (route) =>
      own.has(new URL(route.request().url()).pathname) ? route.continue() : route.abort(),
    )
    await page.goto('/sites')
    const menu = page.getByRole('button', { name: 'Menu' })
    const reviews = page.locator('header').getByRole('link', { name: 'Reviews' })
    await menu.click()
    await expect(reviews).toBeVisible()
    await expect(menu).toHaveAttribute('aria-expanded', 'true')
    await page.locator('main h1').click()
    await expect(reviews).not.toBeVisible()
    await page.unroute('**/_next/static/chunks/**')
    await menu.click()
    await expect(page.getByRole('menu')).toBeVisible()
    expect(errors).toEqual([])
  })

  test('keyboard: Enter opens, arrows move, Escape closes and focus returns to the button', async ({
    page,
  }) => {
    await page.goto('/')
    const menu = page.getByRole('button', { name: 'Menu' })
    await menu.focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('menu')).toBeVisible()
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Escape')
    await expect(page.getByRole('menu')).not.toBeVisible()
    await expect(menu).toBeFocused()
    // Enter on an item follows it and closes the menu.
    await page.keyboard.press('Enter')
    await page.keyboard.press('ArrowDown') // Home -> How We Can Help You
    await page.keyboard.press('Enter')
    await expect(page.getByRole('menu')).not.toBeVisible()
    await expect(page).toHaveURL(/#services$/)
  })

  test('an anchor item on / scrolls smoothly to its section, heading clear of the fixed bar', async ({
    page,
  }) => {
    await page.goto('/')
    await page.getByRole('button', { name: 'Menu' }).click()
    await page.getByRole('menuitem', { name: 'FAQs' }).click()
    await expect(page).toHaveURL(/\/#faq$/)
    const heading = page.locator('#faq h2')
    await expect(heading).toBeInViewport()
    await expect
      .poll(async () => (await heading.boundingBox())!.y)
      .toBeGreaterThanOrEqual(await headerBottom(page))
  })

  test('from another route, an anchor item goes to / and scrolls to the section', async ({ page }) => {
    await page.goto('/case-studies')
    await page.getByRole('button', { name: 'Menu' }).click()
    await page.getByRole('menuitem', { name: 'Reviews' }).click()
    await expect(page).toHaveURL(/\/#reviews$/)
    await expect(page.locator('#reviews h2')).toBeInViewport()
    expect((await page.locator('#reviews h2').boundingBox())!.y).toBeGreaterThanOrEqual(
      await headerBottom(page),
    )
  })
})

test.describe('navigation bar on mobile (spec §2)', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  test('one Menu holds all nine items; a route item navigates and starts at the top', async ({ page }) => {
    await page.goto('/')
    await page.mouse.wheel(0, 2500)
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000)
    await page.getByRole('button', { name: 'Menu' }).click()
    await expect(page.getByRole('menuitem')).toHaveCount(9)
    await page.getByRole('menuitem', { name: 'Sites' }).click()
    await expect(page).toHaveURL(/\/sites$/)
    await expect(page.getByRole('menu')).not.toBeVisible()
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0)
  })

  test("the first tap opens the menu at once, before Headless UI's code arrives, which then takes over, still open", async ({
    page,
    request,
  }) => {
    const own = new Set(deferredScriptsOf(await (await request.get('/')).text()))
    let release = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/_next/static/chunks/**', async (route) => {
      if (!own.has(new URL(route.request().url()).pathname)) await released
      await route.continue()
    })
    await page.goto('/')
    await expect(page.locator(`html[${HYDRATED_ATTRIBUTE}]`)).toBeAttached()
    await page.getByRole('button', { name: 'Menu' }).click()
    await expect(page.locator('header').getByRole('link', { name: 'Free Consultation' })).toBeVisible()
    await expect(page.getByRole('menu')).not.toBeAttached()
    release()
    await expect(page.getByRole('menu')).toBeVisible()
    await expect(page.getByRole('menuitem')).toHaveCount(9)
  })
})

/** The top of the section with this id, in px from the top of the viewport. */
const sectionTop = (page: import('@playwright/test').Page, id: string) =>
  page.locator(`#${id}`).evaluate((section) => Math.round(section.getBoundingClientRect().top))
/** The home page's sections that render after the first paint (app/globals.css). */
const LATE_SECTIONS = `main .${DEFERRED_SECTION_CLASS}`
/** The page's scroll-padding-top (globals.css: 5rem), where an anchor's section should stop. */
const ANCHOR_STOP = 80

test.describe('anchors on a page whose lower sections render late (content-visibility, docs/speed.md)', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  test('a menu anchor lands on its section even before the late sections have rendered', async ({ page }) => {
    // Hold back the idle-time rendering (components/layout/DeferredSections.tsx), so the
    // sections between here and the target still have placeholder heights.
    await page.addInitScript(() => {
      window.requestIdleCallback = () => 0
    })
    await page.goto('/')
    const contact = page.locator('#contact')
    await expect(contact).toHaveCSS('content-visibility', 'auto')
    await page.getByRole('button', { name: 'Menu' }).click()
    await page.getByRole('menuitem', { name: 'Contact Us' }).click()
    await expect(page).toHaveURL(/\/#contact$/)
    await expect.poll(() => sectionTop(page, 'contact')).toBe(ANCHOR_STOP)
  })

  test('after a client-side navigation to /, its late sections are all rendered at once', async ({
    page,
  }) => {
    await page.addInitScript(() => {
      window.requestIdleCallback = () => 0 // no idle-time rendering: only the navigation's
    })
    await page.goto('/case-studies')
    await page.locator('header nav a[href="/"]').first().click() // the brand link
    await expect(page).toHaveURL(/\/$/)
    await expect(page.locator(LATE_SECTIONS)).toHaveCount(6)
    await expect(page.locator(`${LATE_SECTIONS}:not([${RENDERED_ATTRIBUTE}])`)).toHaveCount(0)
  })

  test('once the page is idle, every late section is rendered at its real height', async ({ page }) => {
    await page.goto('/')
    const late = page.locator(LATE_SECTIONS)
    await expect(late).toHaveCount(6)
    await expect(page.locator(`${LATE_SECTIONS}[${RENDERED_ATTRIBUTE}]`)).toHaveCount(6)
    // A rendered section is as tall as its content, not the 1,600 px placeholder.
    expect((await page.locator('#faq').boundingBox())!.height).toBeLessThan(1200)
  })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } })

  test('following an anchor link lands on its section, past placeholder-height sections', async ({
    page,
  }) => {
    await page.goto('/')
    await expect(page.locator('#contact')).toHaveCSS('content-visibility', 'auto')
    await page.locator('header summary:visible').click()
    await page.locator('header').getByRole('link', { name: 'Contact Us' }).click()
    await expect(page).toHaveURL(/\/#contact$/)
    await expect.poll(() => sectionTop(page, 'contact')).toBe(ANCHOR_STOP)
  })

  test("the menu's links are still reachable", async ({ page }) => {
    await page.goto('/sites')
    await page.locator('header summary:visible').click()
    const consultation = page.locator('header').getByRole('link', { name: 'Free Consultation' })
    await expect(consultation).toBeVisible()
    await consultation.click()
    await expect(page).toHaveURL(/\/consultation$/)
  })
})

test('route changes start at the top; browser back restores the position', async ({ page }) => {
  await page.goto('/')
  const teaser = page.getByRole('link', { name: 'See All Case Studies' })
  await teaser.scrollIntoViewIfNeeded()
  const before = await page.evaluate(() => window.scrollY)
  expect(before).toBeGreaterThan(500)
  const teaserTop = (await teaser.boundingBox())!.y
  await teaser.click()
  await expect(page).toHaveURL(/\/case-studies$/)
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0)
  await page.goBack()
  await expect(page).toHaveURL(/\/$/)
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(before - 50)
  // The same content is back in view, not just the same offset (the page's late-rendered
  // sections have their real heights again: components/layout/DeferredSections.tsx).
  await expect.poll(async () => Math.abs((await teaser.boundingBox())!.y - teaserTop)).toBeLessThan(50)
})

test('another route is fetched when a visitor reaches for its link, not when the link is in view', async ({
  page,
}) => {
  const fetched: string[] = []
  page.on('request', (request) => fetched.push(new URL(request.url()).pathname))
  const caseStudies = () => fetched.filter((path) => path.startsWith('/case-studies'))
  await page.goto('/')
  await page.waitForLoadState('networkidle')
  expect(caseStudies()).toEqual([])
  await page.locator('header').getByRole('link', { name: 'Case Studies', exact: true }).hover()
  await expect.poll(() => caseStudies().some((path) => path.endsWith('.txt'))).toBe(true)
})

test('/consultation starts at the top when it loads', async ({ page }) => {
  await page.goto('/consultation')
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0)
})

test.describe('entrance animation (spec §9)', () => {
  test('card grids below the fold stagger in as they enter, with no layout shift', async ({ page }) => {
    await page.addInitScript(() => {
      const shifts: string[] = []
      ;(window as unknown as { shifts: string[] }).shifts = shifts
      type Shift = { value: number; hadRecentInput: boolean; sources: { node?: Node }[] }
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as Shift[])
          if (!entry.hadRecentInput)
            shifts.push(`${entry.value}: ${entry.sources.map((source) => source.node?.nodeName).join(', ')}`)
      }).observe({ type: 'layout-shift', buffered: true })
    })
    await page.goto('/')
    // Count only what scrolling and the animation do (the font swap at load is measured by the font tests).
    await page.evaluate(async () => {
      await document.fonts.ready
      ;(window as unknown as { shifts: string[] }).shifts.length = 0
    })
    const grid = page.locator('#reviews ul[data-stagger]')
    await expect(grid).toHaveAttribute('data-stagger', 'waiting')
    await page.locator('#reviews').scrollIntoViewIfNeeded()
    await expect(grid).toHaveAttribute('data-stagger', 'in')
    const delays = await grid
      .locator(':scope > li')
      .evaluateAll((items) => items.map((item) => getComputedStyle(item).transitionDelay.split(',')[0]))
    expect(delays.slice(0, 3)).toEqual(['0s', '0.1s', '0.2s'])
    await page.mouse.wheel(0, 20000)
    await page.waitForTimeout(800)
    expect(await page.evaluate(() => (window as unknown as { shifts: string[] }).shifts)).toEqual([])
  })

  test('none under reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await page.goto('/')
    await expect(page.locator('#reviews ul')).not.toHaveAttribute('data-stagger')
  })
})
