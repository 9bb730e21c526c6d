/** Calculator limits (spec §5, §9): hours 1-168 a week, rate at least £1 an hour. */
export const HOURS_MIN = 1
export const HOURS_MAX = 168
export const RATE_MIN = 1

/** Weeks counted in a month by the calculator (spec §9: hours x rate x 4). */
export const WEEKS_PER_MONTH = 4

/**
 * Extra revenue in pounds a month from hours won back (spec §9: weekly hours x hourly rate x 4).
 * @throws RangeError when an input is outside the spec's limits or not a number
 */
export function monthlyEarnings(weeklyHours: number, hourlyRate: number): number {
  if (!Number.isFinite(weeklyHours) || weeklyHours < HOURS_MIN || weeklyHours > HOURS_MAX)
    throw new RangeError(`weekly hours must be between ${HOURS_MIN} and ${HOURS_MAX}`)
  if (!Number.isFinite(hourlyRate) || hourlyRate < RATE_MIN)
    throw new RangeError(`hourly rate must be at least ${RATE_MIN}`)
  return weeklyHours * hourlyRate * WEEKS_PER_MONTH
}

// Made on first use: constructing it loads locale data (~14 ms on a throttled phone) during hydration otherwise.
let pounds: Intl.NumberFormat | undefined

/** Pounds with thousands separators (spec §9), pence only when there are any: `formatPounds(12480) === '£12,480'`. */
export function formatPounds(amount: number): string {
  pounds ??= new Intl.NumberFormat('en-GB', {
    style: 'currency',
    currency: 'GBP',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    trailingZeroDisplay: 'stripIfInteger',
  })
  return pounds.format(amount)
}
