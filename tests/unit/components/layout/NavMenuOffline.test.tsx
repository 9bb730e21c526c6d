/**
 * The light Menu (components/layout/NavMenu.tsx) on its own, as when Headless UI's code cannot load
 * (offline): it still opens at once, follows a choice, and closes on a choice, an outside press and Escape.
 */
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { NavMenu } from '@/components/layout/NavMenu'
import { homeMenuItems } from '@/lib/navigation'
import { routeItems } from '@/lib/routes'

let loads = 0
jest.mock('@/components/layout/HeadlessNavMenu', () => {
  loads += 1
  throw new Error('offline')
})
const push = jest.fn()
jest.mock('next/navigation', () => ({
  usePathname: () => '/sites',
  useRouter: () => ({ push, replace: jest.fn(), prefetch: jest.fn(), back: jest.fn() }),
}))

const list = () => screen.queryByRole('list')

function renderMenu() {
  render(
    <div>
      <NavMenu items={[...homeMenuItems, ...routeItems]} />
      <p>Outside</p>
    </div>,
  )
  return screen.getByRole('button', { name: 'Menu' })
}

test('a press opens the list of every item at once; aria-expanded and the list follow', async () => {
  const user = userEvent.setup()
  const button = renderMenu()
  await user.click(button)
  expect(button).toHaveAttribute('aria-expanded', 'true')
  expect(button).toHaveAttribute('aria-controls', list()!.id)
  expect(screen.getAllByRole('link').map((link) => link.textContent)).toEqual([
    ...homeMenuItems.map((item) => item.label),
    ...routeItems.map((item) => item.label),
  ])
  await user.click(button)
  expect(list()).toBeNull()
  expect(button).toHaveAttribute('aria-expanded', 'false')
})

test('an outside press closes it; Escape closes it and returns focus to the button', async () => {
  const user = userEvent.setup()
  const button = renderMenu()
  await user.click(button)
  await user.click(screen.getByText('Outside'))
  expect(list()).toBeNull()
  await user.click(button)
  await user.keyboard('{Escape}')
  expect(list()).toBeNull()
  expect(button).toHaveFocus()
})

test('a choice closes it and is followed: an anchor from another route goes to / (spec §9)', async () => {
  const user = userEvent.setup()
  await user.click(renderMenu())
  await user.click(screen.getByRole('link', { name: 'Reviews' }))
  expect(push).toHaveBeenCalledWith('/#reviews', { scroll: false })
  expect(list()).toBeNull()
})

test('each reach tries to load the menu again, and the light menu stays', async () => {
  const user = userEvent.setup()
  const button = renderMenu()
  const before = loads
  await user.hover(button)
  await waitFor(() => expect(loads).toBeGreaterThan(before))
  await user.unhover(button)
  await user.hover(button)
  await waitFor(() => expect(loads).toBeGreaterThan(before + 1))
  expect(screen.getByRole('button', { name: 'Menu' }).id).toBe('')
})
