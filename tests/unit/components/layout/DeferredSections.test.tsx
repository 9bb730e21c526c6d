import { render } from '@testing-library/react'
import { DeferredSections } from '@/components/layout/DeferredSections'
import {
  DEFERRED_SECTION_CLASS,
  renderDeferredSections,
  RENDERED_ATTRIBUTE,
  renderDeferredSectionsWhenIdle,
  renderSectionsBefore,
  scrollToAnchor,
} from '@/lib/scroll'

let pathname = '/'
jest.mock('next/navigation', () => ({ usePathname: () => pathname }))

/** Home's shape: a hero, then deferred sections with anchors. */
function page() {
  document.body.innerHTML = `<main>
    <section id="homepage"></section>
    ${['services', 'faq', 'reviews', 'contact'].map((id) => `<section id="${id}" class="${DEFERRED_SECTION_CLASS}"></section>`).join('')}
  </main>`
}
const rendered = () =>
  Array.from(document.querySelectorAll(`.${DEFERRED_SECTION_CLASS}`))
    .filter((section) => section.hasAttribute(RENDERED_ATTRIBUTE))
    .map((section) => section.id)

let idle: IdleRequestCallback[] = []
beforeEach(() => {
  pathname = '/'
  page()
  idle = []
  window.requestIdleCallback = jest.fn((callback: IdleRequestCallback) => idle.push(callback))
  window.cancelIdleCallback = jest.fn((handle: number) => {
    idle[handle - 1] = () => {}
  })
  Element.prototype.scrollIntoView = jest.fn()
})
afterEach(() => jest.useRealTimers())
const runIdle = () => idle.shift()?.({ didTimeout: false, timeRemaining: () => 10 })

test('before scrolling to an anchor, the deferred sections above it are rendered, not those after', () => {
  renderSectionsBefore(document.getElementById('reviews')!)
  expect(rendered()).toEqual(['services', 'faq'])
})

test('scrollToAnchor renders the sections before the target, then scrolls to it', async () => {
  const scrolled: string[][] = []
  Element.prototype.scrollIntoView = jest.fn(function (this: Element) {
    scrolled.push(rendered())
  })
  await expect(scrollToAnchor('contact')).resolves.toBe(true)
  expect(scrolled).toEqual([['services', 'faq', 'reviews']])
})

test('after hydration the deferred sections are rendered one per idle period, in document order', () => {
  render(<DeferredSections />)
  expect(rendered()).toEqual([])
  runIdle()
  expect(rendered()).toEqual(['services'])
  runIdle()
  runIdle()
  runIdle()
  expect(rendered()).toEqual(['services', 'faq', 'reviews', 'contact'])
  expect(idle).toHaveLength(0) // nothing left scheduled
})

test('after a client-side navigation, the new page has all its sections rendered at once', () => {
  pathname = '/case-studies'
  const { rerender } = render(<DeferredSections />)
  pathname = '/'
  page() // the new page's sections, as React commits them
  rerender(<DeferredSections />)
  expect(rendered()).toEqual(['services', 'faq', 'reviews', 'contact'])
})

test('renderDeferredSections renders every deferred section now', () => {
  renderDeferredSections()
  expect(rendered()).toEqual(['services', 'faq', 'reviews', 'contact'])
})

test('leaving the page stops what is still to come', () => {
  const { unmount } = render(<DeferredSections />)
  runIdle()
  unmount()
  runIdle()
  expect(rendered()).toEqual(['services'])
})

test('without requestIdleCallback (Safari) a 50 ms timer stands in', () => {
  jest.useFakeTimers()
  // @ts-expect-error: Safari has no requestIdleCallback
  delete window.requestIdleCallback
  const stop = renderDeferredSectionsWhenIdle()
  jest.advanceTimersByTime(49)
  expect(rendered()).toEqual([])
  jest.advanceTimersByTime(1)
  expect(rendered()).toEqual(['services'])
  stop()
  jest.advanceTimersByTime(500)
  expect(rendered()).toEqual(['services'])
})
