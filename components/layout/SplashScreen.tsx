'use client'

import { useEffect, useState } from 'react'
import { prefersReducedMotion } from '@/lib/scroll'
import { SPLASH_FADE_AT_MS, SPLASH_TICK_MS, SPLASH_TOTAL_MS, splashPercent } from '@/lib/splash'

type Phase = 'showing' | 'fading' | 'gone'

/** Milliseconds since the page load started (the navigation's time origin). */
const sinceLoadStart = () => performance.now()

/** U+2007, as wide as a tabular digit. */
const FIGURE_SPACE = '\u2007'

/**
 * The loading splash (spec §1, §4, §9): 'Greatness Awaits' and a percentage that
 * rises by 1 every 20 ms to 100; it fades over 0.5 s from 1.8 s and is removed at
 * 2200 ms. It is in the HTML but shown only when the boot script marked this load
 * (`html[data-splash]`: JavaScript on, first page load of the visit), so the page
 * paints behind it and client-side navigation never shows it. It is drawn on the
 * page's paper (no dark flash before a light page; app/globals.css). It is hidden from
 * assistive technology and never takes focus. Under reduced motion it shows 100%
 * without counting or fading. Times count from the start of the page load.
 * @param now clock in ms since the page load started (tests); default performance.now
 */
export function SplashScreen({ now = sinceLoadStart }: { now?: () => number }) {
  const [phase, setPhase] = useState<Phase>('showing')
  const [percent, setPercent] = useState(0)
  const [still, setStill] = useState(false)

  useEffect(() => {
    const root = document.documentElement
    const reduced = prefersReducedMotion()
    // Called from timers only (state follows the clock, an external system).
    const update = () => {
      const elapsed = now()
      if (!('splash' in root.dataset) || elapsed >= SPLASH_TOTAL_MS) {
        delete root.dataset.splash
        setPhase('gone')
        return true
      }
      setStill(reduced)
      setPercent(reduced ? 100 : splashPercent(elapsed))
      if (!reduced && elapsed >= SPLASH_FADE_AT_MS) setPhase('fading')
      return false
    }
    const first = setTimeout(() => {
      if (update()) clearInterval(timer)
    }, 0)
    const timer = setInterval(() => {
      if (update()) clearInterval(timer)
    }, SPLASH_TICK_MS)
    return () => {
      clearTimeout(first)
      clearInterval(timer)
    }
  }, [now])

  if (phase === 'gone') return null
  return (
    <div
      aria-hidden="true"
      data-phase={phase}
      data-still={still || undefined}
      className="splash fixed inset-0 z-50 flex-col items-center justify-center gap-4 bg-paper px-6 text-center text-ink"
    >
      <p className="display text-3xl tracking-tight uppercase md:text-4xl">Greatness Awaits</p>
      {/* Padded to three figure-width digits: the counter never moves anything (no layout shift). */}
      <p className="text-xl font-semibold whitespace-pre text-accent tabular-nums">
        {String(percent).padStart(3, FIGURE_SPACE)}%
      </p>
    </div>
  )
}
