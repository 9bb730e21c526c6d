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

function place(top: number) {
  jest.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({ top } as DOMRect)
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
  place(2000)
  render(<StaggerList className="grid">{items}</StaggerList>)
  expect(grid()).toHaveAttribute('data-stagger', 'waiting')
  expect(screen.getByText('Three').style.getPropertyValue('--stagger-index')).toBe('2')
  act(() =>
    observed[0]!.callback(
      [{ isIntersecting: true } as IntersectionObserverEntry],
      {} as IntersectionObserver,
    ),
  )
  expect(grid()).toHaveAttribute('data-stagger', 'in')
  expect(observed[0]!.disconnected).toBe(true)
})

test('a grid already in view when the page hydrates is left visible, untouched', () => {
  place(300)
  render(<StaggerList>{items}</StaggerList>)
  expect(grid()).not.toHaveAttribute('data-stagger')
  expect(observed).toHaveLength(0)
})

test('under reduced motion nothing waits or moves', () => {
  place(2000)
  reducedMotion(true)
  render(<StaggerList>{items}</StaggerList>)
  expect(grid()).not.toHaveAttribute('data-stagger')
})

test('the server HTML is never hidden: without the effect the list has no stagger state', async () => {
  const { renderToString } = await import('react-dom/server')
  expect(renderToString(<StaggerList className="grid">{items}</StaggerList>)).toBe(
    '<ul class="grid"><li>One</li><li>Two</li><li>Three</li></ul>',
  )
})
