import { act, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { HeadlessNavMenu as NavMenuLoaded } from '@/components/layout/HeadlessNavMenu'
import { NavMenu } from '@/components/layout/NavMenu'
import { homeMenuItems } from '@/lib/navigation'
import { routeItems } from '@/lib/routes'

const push = jest.fn()
let pathname = '/'
jest.mock('next/navigation', () => ({
  usePathname: () => pathname,
  useRouter: () => ({ push, replace: jest.fn(), prefetch: jest.fn(), back: jest.fn() }),
}))

const scrollIntoView = jest.fn()
/** Our scrolls (Headless UI also calls scrollIntoView({block: 'nearest'}) to keep the active item visible). */
const sectionScrolls = () =>
  scrollIntoView.mock.calls
    .map((call, index) => ({ options: call[0], target: scrollIntoView.mock.instances[index] }))
    .filter(({ options }) => options?.block === 'start')
beforeEach(() => {
  pathname = '/'
  push.mockReset()
  scrollIntoView.mockReset()
  Element.prototype.scrollIntoView = scrollIntoView
  window.matchMedia = jest.fn().mockReturnValue({ matches: false }) as unknown as typeof window.matchMedia
})

const allItems = [...homeMenuItems, ...routeItems]

test('a Menu button with aria-expanded opens a menu of the items, with the spec labels', async () => {
  const user = userEvent.setup()
  render(<NavMenuLoaded items={allItems} />)
  const button = screen.getByRole('button', { name: 'Menu' })
  expect(button).toHaveAttribute('aria-expanded', 'false')
  await user.click(button)
  expect(button).toHaveAttribute('aria-expanded', 'true')
  const items = screen.getAllByRole('menuitem')
  expect(items.map((item) => item.textContent)).toEqual([
    'Home',
    'How We Can Help You',
    'Is This You',
    'FAQs',
    'Reviews',
    'Contact Us',
    'Case Studies',
    'Sites',
    'Free Consultation',
  ])
  expect(items[6]).toHaveAttribute('href', '/case-studies')
})

test('keyboard: Enter opens, arrows move, Escape closes and returns focus to the button', async () => {
  const user = userEvent.setup()
  render(<NavMenuLoaded items={homeMenuItems} />)
  const button = screen.getByRole('button', { name: 'Menu' })
  button.focus()
  await user.keyboard('{Enter}')
  expect(screen.getByRole('menu')).toBeInTheDocument()
  await user.keyboard('{ArrowDown}')
  await user.keyboard('{ArrowDown}')
  expect(screen.getByRole('menuitem', { name: 'Is This You' })).toHaveAttribute('data-focus')
  await user.keyboard('{Escape}')
  expect(screen.queryByRole('menu')).toBeNull()
  expect(button).toHaveFocus()
})

test('a click outside closes it', async () => {
  const user = userEvent.setup()
  render(
    <div>
      <NavMenuLoaded items={homeMenuItems} />
      <p>Outside</p>
    </div>,
  )
  await user.click(screen.getByRole('button', { name: 'Menu' }))
  expect(screen.getByRole('menu')).toBeInTheDocument()
  await user.click(screen.getByText('Outside'))
  expect(screen.queryByRole('menu')).toBeNull()
})

test('on /, an anchor item scrolls smoothly to its section and the menu closes', async () => {
  const user = userEvent.setup()
  render(
    <>
      <NavMenuLoaded items={homeMenuItems} />
      <section id="faq">FAQ</section>
    </>,
  )
  await user.click(screen.getByRole('button', { name: 'Menu' }))
  await user.click(screen.getByRole('menuitem', { name: 'FAQs' }))
  expect(sectionScrolls()).toEqual([
    { options: { behavior: 'smooth', block: 'start' }, target: document.getElementById('faq') },
  ])
  expect(window.location.hash).toBe('#faq')
  expect(push).not.toHaveBeenCalled()
  expect(screen.queryByRole('menu')).toBeNull()
})

test('from another route, an anchor item goes to / and scrolls after 100 ms (spec §9)', async () => {
  jest.useFakeTimers()
  pathname = '/sites'
  const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime })
  render(<NavMenuLoaded items={homeMenuItems} />)
  await user.click(screen.getByRole('button', { name: 'Menu' }))
  await user.click(screen.getByRole('menuitem', { name: 'Reviews' }))
  expect(push).toHaveBeenCalledWith('/#reviews', { scroll: false })
  // The home page arrives: the section appears; the scroll comes 100 ms after the click.
  const section = document.createElement('section')
  section.id = 'reviews'
  document.body.append(section)
  act(() => jest.advanceTimersByTime(99))
  expect(sectionScrolls()).toEqual([])
  act(() => jest.advanceTimersByTime(1))
  expect(sectionScrolls().map(({ target }) => target)).toEqual([section])
  section.remove()
  jest.useRealTimers()
})

test('under reduced motion the scroll is instant', async () => {
  window.matchMedia = jest.fn().mockReturnValue({ matches: true }) as unknown as typeof window.matchMedia
  const user = userEvent.setup()
  render(
    <>
      <NavMenuLoaded items={homeMenuItems} />
      <section id="contact">Contact</section>
    </>,
  )
  await user.click(screen.getByRole('button', { name: 'Menu' }))
  await user.click(screen.getByRole('menuitem', { name: 'Contact Us' }))
  expect(sectionScrolls()[0]?.options).toEqual({ behavior: 'auto', block: 'start' })
})

describe('the light shell (NavMenu): a disclosure at once, Headless UI once reached for', () => {
  test('a press opens the list at once; Headless UI then takes over, open, with focus on its button', async () => {
    const user = userEvent.setup()
    render(<NavMenu items={allItems} />)
    const shell = screen.getByRole('button', { name: 'Menu' })
    expect(shell).toHaveAttribute('aria-expanded', 'false')
    expect(shell).not.toHaveAttribute('aria-haspopup')
    await user.click(shell)
    expect(await screen.findByRole('menu')).toBeInTheDocument()
    const button = screen.getByRole('button', { name: 'Menu' })
    expect(button.id).toMatch(/^headlessui-menu-button/)
    expect(button).toHaveAttribute('aria-expanded', 'true')
    expect(screen.getAllByRole('menuitem')).toHaveLength(9)
  })

  test('from the keyboard: focus loads the menu, which takes the focus; Enter opens it, Escape closes it', async () => {
    const user = userEvent.setup()
    render(<NavMenu items={homeMenuItems} />)
    act(() => screen.getByRole('button', { name: 'Menu' }).focus())
    await waitFor(() => expect(screen.getByRole('button', { name: 'Menu' }).id).toMatch(/^headlessui/))
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveFocus()
    await user.keyboard('{Enter}')
    expect(await screen.findByRole('menu')).toBeInTheDocument()
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull())
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveFocus()
  })

  test('nothing reached for, nothing loaded: after load and idle time it is still the light button', async () => {
    render(<NavMenu items={homeMenuItems} />)
    await act(async () => {
      window.dispatchEvent(new Event('load'))
      await new Promise((resolve) => setTimeout(resolve, 2100))
    })
    expect(screen.getByRole('button', { name: 'Menu' }).id).toBe('')
  })
})
