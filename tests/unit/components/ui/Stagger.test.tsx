import { act, render, screen } from '@testing-library/react'
import { StaggerList } from '@/components/ui/Stagger'

let observed: { callback: IntersectionObserverCallback; disconnected: boolean }[] = []
class IntersectionObserverFake {
  entry: (typeof observed)[number]
  constructor(callback: IntersectionObserverCallback) {
    this.entry = { callback, disconnected: false }
    observed.push(this.entry)
  }
  observe() {}
  disconnect() {
    this.entry.disconnected = true
  }
}

/**
 * The observer reports the grid at `top` px from the viewport's top (its first report
 * places it); `rendered` false is a grid whose section the browser skips
 * (content-visibility: auto), reported as an empty rectangle at 0.
 */
function report(top: number, isIntersecting = top < 800, rendered = true) {
  const rect = rendered ? { top, width: 1000, height: 400 } : { top: 0, width: 0, height: 0 }
  act(() =>
    observed[0]!.callback(
      [{ isIntersecting, boundingClientRect: rect } as IntersectionObserverEntry],
      {} as IntersectionObserver,
    ),
  )
}
function reducedMotion(matches: boolean) {
  window.matchMedia = jest.fn().mockReturnValue({ matches }) as unknown as typeof window.matchMedia
}
const grid = () => screen.getByRole('list')
const items = (
  <>
    <li>One</li>
    <li>Two</li>
    <li>Three</li>
  </>
)

beforeEach(() => {
  observed = []
  globalThis.IntersectionObserver = IntersectionObserverFake as unknown as typeof IntersectionObserver
  reducedMotion(false)
  window.innerHeight = 800
})
afterEach(() => jest.restoreAllMocks())

test('a grid below the viewport waits, then its items stagger in 0.1 s apart when it enters', () => {
  const layout = jest.spyOn(HTMLElement.prototype, 'getBoundingClientRect')
  render(<StaggerList className="grid">{items}</StaggerList>)
  // Nothing changes, and nothing forces a layout, before the observer's first report.
  expect(grid()).not.toHaveAttribute('data-stagger')
  expect(layout).not.toHaveBeenCalled()
  report(2000)
  expect(grid()).toHaveAttribute('data-stagger', 'waiting')
  expect(screen.getByText('Three').style.getPropertyValue('--stagger-index')).toBe('2')
  report(700, true)
  expect(grid()).toHaveAttribute('data-stagger', 'in')
  expect(observed[0]!.disconnected).toBe(true)
})

test('a grid already in view when the page hydrates is left visible, untouched', () => {
  render(<StaggerList>{items}</StaggerList>)
  report(300)
  expect(grid()).not.toHaveAttribute('data-stagger')
  expect(observed[0]!.disconnected).toBe(true)
})

test('a grid in the bottom strip of the viewport (not yet intersecting the observer) counts as seen', () => {
  render(<StaggerList>{items}</StaggerList>)
  report(780, false)
  expect(grid()).not.toHaveAttribute('data-stagger')
})

test('a grid in a section not rendered yet (content-visibility: auto) waits, then staggers in', () => {
  render(<StaggerList>{items}</StaggerList>)
  report(0, false, false)
  expect(grid()).toHaveAttribute('data-stagger', 'waiting')
  report(600, true)
  expect(grid()).toHaveAttribute('data-stagger', 'in')
})

test('under reduced motion nothing waits or moves', () => {
  reducedMotion(true)
  render(<StaggerList>{items}</StaggerList>)
  expect(observed).toHaveLength(0)
  expect(grid()).not.toHaveAttribute('data-stagger')
})

test('the server HTML is never hidden: without the effect the list has no stagger state', async () => {
  const { renderToString } = await import('react-dom/server')
  expect(renderToString(<StaggerList className="grid">{items}</StaggerList>)).toBe(
    '<ul class="grid"><li>One</li><li>Two</li><li>Three</li></ul>',
  )
})
