'use client'

import { useEffect } from 'react'

/**
 * Starts the page at the top when it loads (spec §2: /consultation scrolls to the
 * top on load), also when the browser would have restored an old position.
 */
export function ScrollToTop() {
  useEffect(() => {
    if (!window.location.hash) window.scrollTo({ top: 0, behavior: 'instant' })
  }, [])
  return null
}
