'use client'

import Link from 'next/link'
import { useState, type ComponentProps } from 'react'

type IntentLinkProps = Omit<
  ComponentProps<typeof Link>,
  'prefetch' | 'onMouseEnter' | 'onTouchStart' | 'onFocus'
>

/**
 * next/link that prefetches its route only once a visitor reaches for it (pointer over, touch, focus), not
 * when it scrolls into view: a page downloads no other route's code or data unasked (Next's prefetching
 * guide, "Hover-triggered prefetch"). Without the prefetch a click still navigates, fetching on the way.
 */
export function IntentLink(props: IntentLinkProps) {
  const [reached, setReached] = useState(false)
  const reach = () => setReached(true)
  return (
    <Link
      {...props}
      prefetch={reached ? null : false}
      onMouseEnter={reach}
      onTouchStart={reach}
      onFocus={reach}
    />
  )
}
