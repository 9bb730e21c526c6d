/** components/ui/IntentLink.tsx: next/link's prefetch stays off until a visitor reaches for the link. */
import { fireEvent, render, screen } from '@testing-library/react'
import type { ComponentProps } from 'react'
import { IntentLink } from '@/components/ui/IntentLink'

jest.mock('next/link', () => ({
  __esModule: true,
  default: ({ prefetch, href, ...props }: ComponentProps<'a'> & { prefetch?: boolean | null }) => (
    <a href={href} data-prefetch={String(prefetch)} {...props} />
  ),
}))

test.each([
  ['a pointer over it', fireEvent.mouseEnter],
  ['a touch', fireEvent.touchStart],
  ['focus', fireEvent.focus],
])('no prefetch on sight; %s turns on next/link’s own', (_, reach) => {
  render(
    <IntentLink href="/sites" className="x">
      Sites
    </IntentLink>,
  )
  const link = screen.getByRole('link', { name: 'Sites' })
  expect(link).toHaveAttribute('data-prefetch', 'false')
  expect(link).toHaveAttribute('href', '/sites')
  expect(link).toHaveClass('x')
  reach(link)
  expect(link).toHaveAttribute('data-prefetch', 'null')
})

test('handlers given for those events still run (Headless UI passes its own to a menu item)', () => {
  const onMouseEnter = jest.fn()
  const onFocus = jest.fn()
  render(
    <IntentLink href="/sites" onMouseEnter={onMouseEnter} onFocus={onFocus}>
      Sites
    </IntentLink>,
  )
  const link = screen.getByRole('link', { name: 'Sites' })
  fireEvent.mouseEnter(link)
  fireEvent.focus(link)
  expect(onMouseEnter).toHaveBeenCalledTimes(1)
  expect(onFocus).toHaveBeenCalledTimes(1)
})
