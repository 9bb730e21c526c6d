import { render } from '@testing-library/react'
import { BookingWidget, BOOKING_MIN_HEIGHT } from '@/components/consultation/BookingWidget'

jest.mock('next/script', () => ({
  __esModule: true,
  default: (props: { src: string; strategy: string }) => (
    <span data-testid="next-script" data-src={props.src} data-strategy={props.strategy} />
  ),
}))

test('a configured third-party widget: its page in a titled iframe at least 800 px high, and its embed script', () => {
  const { container, getByTestId } = render(
    <BookingWidget
      url="https://booking.example.com/agency/free-call"
      scriptUrl="https://booking.example.com/embed.js"
    />,
  )
  const frame = container.querySelector('iframe')!
  expect(frame).toHaveAttribute('src', 'https://booking.example.com/agency/free-call')
  expect(frame.getAttribute('title')).toBeTruthy()
  expect(BOOKING_MIN_HEIGHT).toBe(800)
  expect(parseInt(frame.style.minHeight)).toBeGreaterThanOrEqual(800)
  expect(getByTestId('next-script')).toHaveAttribute('data-src', 'https://booking.example.com/embed.js')
})

test('without an embed script only the iframe is rendered', () => {
  const { container } = render(<BookingWidget url="/booking/" />)
  expect(container.querySelector('iframe')).toHaveAttribute('src', '/booking/')
  expect(container.querySelector('[data-testid="next-script"]')).toBeNull()
})
