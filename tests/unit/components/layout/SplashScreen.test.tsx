import { act, render, screen } from '@testing-library/react'
import { SplashScreen } from '@/components/layout/SplashScreen'
import { SPLASH_SEEN_KEY, splashPercent } from '@/lib/splash'
import { BOOT_SCRIPT } from '@/lib/splash-boot-script'

/** A clock the test moves: ms since the page load started. */
let clock = 0
const now = () => clock
function advance(ms: number) {
  for (let step = 0; step < ms; step += 10) {
    clock += 10
    act(() => jest.advanceTimersByTime(10))
  }
}
function reducedMotion(matches: boolean) {
  window.matchMedia = jest.fn().mockReturnValue({ matches }) as unknown as typeof window.matchMedia
}

beforeEach(() => {
  jest.useFakeTimers()
  clock = 0
  reducedMotion(false)
  document.documentElement.dataset.splash = ''
})
afterEach(() => {
  jest.useRealTimers()
  delete document.documentElement.dataset.splash
  sessionStorage.clear()
})

const splash = () => screen.queryByText('Greatness Awaits')?.parentElement ?? null

test('the percentage rises by 1 every 20 ms to 100 (spec §4, §9)', () => {
  render(<SplashScreen now={now} />)
  expect(screen.getByText('Greatness Awaits')).toBeInTheDocument()
  advance(20)
  expect(screen.getByText(/^\s*1%$/)).toBeInTheDocument()
  advance(480)
  expect(screen.getByText(/^\s*25%$/)).toBeInTheDocument()
  advance(1500)
  expect(screen.getByText('100%')).toBeInTheDocument()
  expect(splashPercent(5000)).toBe(100)
})

test('it fades from 1.8 s and is removed at 2200 ms, hidden from assistive technology throughout', () => {
  render(<SplashScreen now={now} />)
  advance(20)
  expect(splash()).toHaveAttribute('aria-hidden', 'true')
  expect(splash()).toHaveAttribute('data-phase', 'showing')
  advance(1770)
  expect(splash()).toHaveAttribute('data-phase', 'showing')
  advance(20)
  expect(splash()).toHaveAttribute('data-phase', 'fading')
  advance(380)
  expect(splash()).not.toBeNull()
  advance(20)
  expect(splash()).toBeNull()
  expect('splash' in document.documentElement.dataset).toBe(false)
})

test('under reduced motion it shows 100% without counting or fading, and still leaves at 2200 ms', () => {
  reducedMotion(true)
  render(<SplashScreen now={now} />)
  advance(20)
  expect(screen.getByText('100%')).toBeInTheDocument()
  expect(splash()).toHaveAttribute('data-still', 'true')
  advance(1900)
  expect(splash()).toHaveAttribute('data-phase', 'showing')
  advance(300)
  expect(splash()).toBeNull()
})

test('a load the boot script did not mark (a later page of the visit) has no splash', () => {
  delete document.documentElement.dataset.splash
  render(<SplashScreen now={now} />)
  advance(20)
  expect(splash()).toBeNull()
})

test('the boot script marks only the first page load of a visit', () => {
  delete document.documentElement.dataset.splash
  const boot = () => new Function(BOOT_SCRIPT)()
  boot()
  expect('splash' in document.documentElement.dataset).toBe(true)
  expect(sessionStorage.getItem(SPLASH_SEEN_KEY)).toBe('1')
  delete document.documentElement.dataset.splash
  boot()
  expect('splash' in document.documentElement.dataset).toBe(false)
})

test('the boot script shows no splash under the embedded Studio', () => {
  sessionStorage.clear()
  delete document.documentElement.dataset.splash
  window.history.pushState({}, '', '/studio/structure')
  try {
    new Function(BOOT_SCRIPT)()
    expect('splash' in document.documentElement.dataset).toBe(false)
    expect(sessionStorage.getItem(SPLASH_SEEN_KEY)).toBeNull()
  } finally {
    window.history.pushState({}, '', '/')
  }
})
