/**
 * The booking widget on /consultation (components/consultation/BookingWidget.tsx),
 * rendered with the real next/script: the booking page in a titled frame at least
 * 800 px high (spec §9), and the provider's embed script added once the page has
 * loaded, never before (it must not compete with the page's own loading).
 */
// First: BookingWidget imports next-sanity (stegaClean), which needs Node's web globals in jsdom.
import '../../helpers/webGlobals'
import { render, screen, waitFor } from '@testing-library/react'
import { BookingWidget } from '@/components/consultation/BookingWidget'

const scripts = () =>
  Array.from(document.querySelectorAll('script[src]'), (script) => script.getAttribute('src'))
const settle = () => new Promise((resolve) => setTimeout(resolve, 50))

// First in this file: next/script remembers every script it has added for as long as
// the module lives, so one added by an earlier test would hide a wrong one here.
test('without an embed script: the booking page in a frame named for screen readers, at least 800 px high, and no script', async () => {
  render(<BookingWidget url="https://booking.example.com/agency/free-call" />)
  const frame = screen.getByTitle('Book a free consultation')
  expect(frame.tagName).toBe('IFRAME')
  expect(frame).toHaveAttribute('src', 'https://booking.example.com/agency/free-call')
  expect(frame).toHaveStyle({ minHeight: '800px' })
  await settle()
  expect(scripts()).toEqual([])
})

test("with an embed script: the provider's script joins the page after it has loaded, once", async () => {
  const src = 'https://booking.example.com/embed.js'
  const { rerender } = render(<BookingWidget url="/booking/" scriptUrl={src} />)
  expect(screen.getByTitle('Book a free consultation')).toHaveAttribute('src', '/booking/')
  // Not part of the first render: it waits for the browser to be idle after load.
  expect(scripts()).toEqual([])
  await waitFor(() => expect(scripts()).toEqual([src]))
  rerender(<BookingWidget url="/booking/" scriptUrl={src} />)
  await settle()
  expect(scripts()).toEqual([src])
})
