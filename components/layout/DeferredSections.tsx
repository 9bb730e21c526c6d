'use client'

import { usePathname } from 'next/navigation'
import { useEffect, useLayoutEffect, useRef } from 'react'
import { renderDeferredSections, renderDeferredSectionsWhenIdle } from '@/lib/scroll'

/** Renders the sections the first paint skipped (docs/speed.md): one per idle period, all at once after a navigation. */
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
