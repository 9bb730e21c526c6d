'use client'

import Link from 'next/link'
import { useState, type ComponentProps, type SyntheticEvent } from 'react'

type LinkProps = Omit<ComponentProps<typeof Link>, 'prefetch'>

/**
 * next/link that prefetches its route only once a visitor reaches for it (pointer over, touch, focus), not
 * when it scrolls into view: a page downloads no other route's code or data unasked (Next's prefetching
 * guide, "Hover-triggered prefetch"). Without the prefetch a click still navigates, fetching on the way.
 * Handlers given for those events (Headless UI's, on a menu item) still run.
 */
export function IntentLink({ onMouseEnter, onTouchStart, onFocus, ...props }: LinkProps) {
  const [reached, setReached] = useState(false)
  const reach =
    <E extends SyntheticEvent<HTMLAnchorElement>>(handler?: (event: E) => void) =>
    (event: E) => {
      setReached(true)
      handler?.(event)
    }
  return (
    <Link
      {...props}
      prefetch={reached ? null : false}
      onMouseEnter={reach(onMouseEnter)}
      onTouchStart={reach(onTouchStart)}
      onFocus={reach(onFocus)}
    />
  )
}
