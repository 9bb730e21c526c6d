'use client'

import { usePathname } from 'next/navigation'
import { useEffect, useLayoutEffect, useRef } from 'react'
import { renderDeferredSections, renderDeferredSectionsWhenIdle } from '@/lib/scroll'

/**
 * Renders the sections that the first paint skipped (`.render-when-near`,
 * content-visibility: auto; lib/scroll.ts). On the page the visit starts on: one per
 * idle period, once it has hydrated. After a client-side navigation (no first paint to
 * win, and Back must restore the scroll position against real heights, not
 * placeholders): all of them, before the new page is painted. Without JavaScript they
 * stay rendered-when-near, and following an anchor link renders them all through CSS
 * (`main:has(:target)`). Renders nothing.
 */
export function DeferredSections() {
  const pathname = usePathname()
  const firstPage = useRef(true)
  useLayoutEffect(() => {
    if (!firstPage.current) renderDeferredSections()
  }, [pathname])
  useEffect(() => {
    if (!firstPage.current) return
    firstPage.current = false
    return renderDeferredSectionsWhenIdle()
  }, [pathname])
  return null
}
