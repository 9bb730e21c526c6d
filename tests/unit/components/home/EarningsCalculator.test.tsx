import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { EarningsCalculator } from '@/components/home/EarningsCalculator'

describe('EarningsCalculator (spec §4, §5, §9)', () => {
  test('shows hours x rate x 4 in pounds, then Calculate Again clears both inputs', async () => {
    const user = userEvent.setup()
    render(<EarningsCalculator intro="What are your hours worth?" />)
    await user.type(screen.getByLabelText('Hours lost to admin each week'), '10')
    await user.type(screen.getByLabelText('Your hourly rate (£)'), '312')
    await user.click(screen.getByRole('button', { name: 'Calculate' }))

    expect(screen.getByText('£12,480')).toBeInTheDocument()
    expect(screen.getByText('extra revenue each month')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Calculate Again' }))
    expect(screen.getByLabelText('Hours lost to admin each week')).toHaveValue(null)
    expect(screen.getByLabelText('Your hourly rate (£)')).toHaveValue(null)
  })

  test('enforces the limits with the browser validation: hours 1-168, rate at least 1', () => {
    render(<EarningsCalculator intro="x" />)
    const hours = screen.getByLabelText('Hours lost to admin each week')
    expect(hours).toBeRequired()
    expect(hours).toHaveAttribute('min', '1')
    expect(hours).toHaveAttribute('max', '168')
    expect(screen.getByLabelText('Your hourly rate (£)')).toHaveAttribute('min', '1')
  })
})
