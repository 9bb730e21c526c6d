'use client'

import { useRef, useState, type FormEvent } from 'react'
import { buttonStyles } from '@/components/ui/ButtonLink'
import { fieldClass } from '@/components/ui/formStyles'
import { formatPounds, HOURS_MAX, HOURS_MIN, monthlyEarnings, RATE_MIN } from '@/lib/earnings'

/** The earnings calculator (spec §4, §5, §9: hours x rate x 4 a month); the browser's validation enforces the limits. */
export function EarningsCalculator({ intro }: { intro: string }) {
  const [result, setResult] = useState<number | null>(null)
  const resultRef = useRef<HTMLParagraphElement>(null)
  const hoursRef = useRef<HTMLInputElement>(null)

  function calculate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const data = new FormData(event.currentTarget)
    setResult(monthlyEarnings(Number(data.get('hours')), Number(data.get('rate'))))
    requestAnimationFrame(() => resultRef.current?.focus())
  }

  function reset() {
    setResult(null)
    requestAnimationFrame(() => hoursRef.current?.focus())
  }

  return (
    <div className="rounded-ui bg-ink p-7 text-on-ink shadow-lift md:p-9">
      <h3 className="text-xl font-bold">What is your time worth?</h3>
      <p className="mt-2 text-on-ink-muted">{intro}</p>
      <div aria-live="polite">
        {result === null ? (
          <form onSubmit={calculate} className="mt-6 grid gap-5">
            <label className="block font-semibold">
              Hours lost to admin each week
              <input
                ref={hoursRef}
                name="hours"
                type="number"
                inputMode="decimal"
                required
                min={HOURS_MIN}
                max={HOURS_MAX}
                step="any"
                placeholder="10"
                className={fieldClass}
              />
            </label>
            <label className="block font-semibold">
              Your hourly rate (£)
              <input
                name="rate"
                type="number"
                inputMode="decimal"
                required
                min={RATE_MIN}
                step="any"
                placeholder="45"
                className={fieldClass}
              />
            </label>
            <button type="submit" className={buttonStyles.primary}>
              Calculate
            </button>
          </form>
        ) : (
          <div className="mt-6">
            <p ref={resultRef} tabIndex={-1} className="focus:outline-none">
              <span className="display block text-3xl text-surface">{formatPounds(result)}</span>
              <span className="mt-1 block text-on-ink-muted">extra revenue each month</span>
            </p>
            <button type="button" onClick={reset} className={`${buttonStyles.onInk} mt-6`}>
              Calculate Again
            </button>
          </div>
        )}
      </div>
    </div>
  )
}
