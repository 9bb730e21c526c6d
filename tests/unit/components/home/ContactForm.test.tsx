import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { ContactForm } from '@/components/home/ContactForm'
import { HONEYPOT_FIELD } from '@/lib/contact'

const WEBHOOK = 'https://hooks.example.test/contact'

async function fillRequired(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('First name'), 'Sam')
  await user.type(screen.getByLabelText('Last name'), 'Patel')
  await user.type(screen.getByLabelText('Email'), 'sam@example.co.uk')
  await user.type(screen.getByLabelText('Phone'), '07700 900123')
  await user.type(screen.getByLabelText(/What would you like to automate/), 'Quotes')
}

function mockFetch(answer: () => Promise<Response>) {
  const calls: { url: string; init: RequestInit }[] = []
  global.fetch = jest.fn((url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} })
    return answer()
  }) as typeof fetch
  return calls
}

describe('ContactForm (spec §4, §7, §8)', () => {
  test('sends the six fields as JSON, shows Sending..., then Message Sent! and resets', async () => {
    let finish: (response: Response) => void = () => {}
    const calls = mockFetch(() => new Promise((resolve) => (finish = resolve)))
    const user = userEvent.setup()
    render(<ContactForm webhookUrl={WEBHOOK} />)
    await fillRequired(user)
    await user.click(screen.getByRole('button', { name: 'Send Message' }))

    expect(screen.getByRole('button', { name: 'Sending...' })).toBeDisabled()
    expect(calls).toHaveLength(1)
    expect(calls[0]!.url).toBe(WEBHOOK)
    expect(calls[0]!.init.method).toBe('POST')
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({
      firstName: 'Sam',
      lastName: 'Patel',
      email: 'sam@example.co.uk',
      phone: '07700 900123',
      website: '',
      automation: 'Quotes',
    })

    finish({ ok: true, status: 200 } as Response)
    expect(await screen.findByText('Message Sent!')).toBeInTheDocument()
    expect(screen.getByText("We'll get back to you soon.")).toBeInTheDocument()
    expect(screen.getByLabelText('First name')).toHaveValue('')
    expect(screen.getByRole('button', { name: 'Send Message' })).toBeEnabled()
  })

  test.each([
    ['a non-OK answer', () => Promise.resolve({ ok: false, status: 500 } as Response)],
    ['a network error', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('on %s: the Error notice, and every entry kept', async (_case, answer) => {
    mockFetch(answer)
    const user = userEvent.setup()
    render(<ContactForm webhookUrl={WEBHOOK} />)
    await fillRequired(user)
    await user.click(screen.getByRole('button', { name: 'Send Message' }))

    expect(
      await screen.findByText('There was a problem sending your message. Please try again.'),
    ).toBeInTheDocument()
    expect(screen.getByText('Error')).toBeInTheDocument()
    expect(screen.getByLabelText('First name')).toHaveValue('Sam')
    expect(screen.getByLabelText('Email')).toHaveValue('sam@example.co.uk')
    expect(screen.getByLabelText(/What would you like to automate/)).toHaveValue('Quotes')
  })

  test('requires first name, last name, email and phone (spec §5)', () => {
    render(<ContactForm webhookUrl={WEBHOOK} />)
    for (const label of ['First name', 'Last name', 'Email', 'Phone'])
      expect(screen.getByLabelText(label)).toBeRequired()
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email')
    expect(screen.getByLabelText('Phone')).toHaveAttribute('type', 'tel')
    expect(screen.getByLabelText(/Website/)).not.toBeRequired()
  })

  describe('the honeypot', () => {
    const honeypot = (container: HTMLElement) =>
      container.querySelector<HTMLInputElement>(`input[name="${HONEYPOT_FIELD}"]`)!

    test('people never see or reach it: off-screen, out of the tab order, hidden from assistive technology', async () => {
      const user = userEvent.setup()
      const { container } = render(<ContactForm webhookUrl={WEBHOOK} />)
      const input = honeypot(container)
      expect(input).toBeInTheDocument()
      expect(input).toHaveAttribute('tabindex', '-1')
      expect(input).toHaveAttribute('autocomplete', 'off')
      expect(input.closest('[aria-hidden="true"]')).not.toBeNull()
      // Positioned off-screen, not display:none (which some bots skip).
      expect(input.closest('[aria-hidden="true"]')!.className).toMatch(/-left-\[10000px\]/)
      expect(input.closest('[aria-hidden="true"]')!.className.split(' ')).not.toContain('hidden')
      expect(input).not.toHaveAttribute('type', 'hidden')
      // Not in the accessibility tree, and Tab goes from Website straight on.
      expect(screen.queryByRole('textbox', { name: /fax/i })).toBeNull()
      await user.click(screen.getByLabelText(/Website/))
      await user.tab()
      expect(screen.getByLabelText(/What would you like to automate/)).toHaveFocus()
    })

    test('filled in (a bot): nothing is sent, yet Message Sent! shows and the form resets', async () => {
      const calls = mockFetch(() => Promise.resolve({ ok: true, status: 200 } as Response))
      const user = userEvent.setup()
      const { container } = render(<ContactForm webhookUrl={WEBHOOK} />)
      await fillRequired(user)
      await user.type(honeypot(container), 'Acme Ltd')
      await user.click(screen.getByRole('button', { name: 'Send Message' }))

      expect(await screen.findByText('Message Sent!')).toBeInTheDocument()
      expect(screen.getByText("We'll get back to you soon.")).toBeInTheDocument()
      expect(calls).toHaveLength(0)
      expect(screen.getByLabelText('First name')).toHaveValue('')
      expect(honeypot(container)).toHaveValue('')
    })

    test('left empty (a person): the JSON is still exactly the six fields', async () => {
      const calls = mockFetch(() => Promise.resolve({ ok: true, status: 200 } as Response))
      const user = userEvent.setup()
      render(<ContactForm webhookUrl={WEBHOOK} />)
      await fillRequired(user)
      await user.click(screen.getByRole('button', { name: 'Send Message' }))
      expect(await screen.findByText('Message Sent!')).toBeInTheDocument()
      expect(Object.keys(JSON.parse(String(calls[0]!.init.body)))).toEqual([
        'firstName',
        'lastName',
        'email',
        'phone',
        'website',
        'automation',
      ])
    })
  })
})
