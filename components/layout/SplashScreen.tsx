'use client'

import { useEffect, useState } from 'react'
import { prefersReducedMotion } from '@/lib/scroll'
import { SPLASH_FADE_AT_MS, SPLASH_TICK_MS, SPLASH_TOTAL_MS, splashPercent } from '@/lib/splash'

type Phase = 'showing' | 'fading' | 'gone'

const sinceLoadStart = () => performance.now()

const FIGURE_SPACE = '\u2007'

/** The loading splash (spec §1, §4, §9), shown only when the boot script marked this load; `now` is ms since it started. */
export function SplashScreen({ now = sinceLoadStart }: { now?: () => number }) {
  const [phase, setPhase] = useState<Phase>('showing')
  const [percent, setPercent] = useState(0)
  const [still, setStill] = useState(false)

  useEffect(() => {
    const root = document.documentElement
    const reduced = prefersReducedMotion()
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
      {/* Figure spaces pad it to three digits: no layout shift. */}
      <p className="text-xl font-semibold whitespace-pre text-accent tabular-nums">
        {String(percent).padStart(3, FIGURE_SPACE)}%
      </p>
    </div>
  )
}
