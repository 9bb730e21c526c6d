'use client'

import { usePathname, useRouter } from 'next/navigation'
import type { MouseEvent } from 'react'
import { anchorOf, ANCHOR_RETRY_MS, type NavItem } from '@/lib/navigation'
import { scrollBehavior, scrollToAnchor } from '@/lib/scroll'

/**
 * What choosing a Menu item does beyond next/link (spec §2, §9): an anchor scrolls smoothly to its section,
 * from another route after going to / and 100 ms; the current route's item goes back to the top.
 * @returns a click handler for the item's link
 */
export function useFollowNavItem() {
  const pathname = usePathname()
  const router = useRouter()
  return (event: MouseEvent<HTMLAnchorElement>, item: NavItem) => {
    const anchor = anchorOf(item.href)
    if (!anchor) {
      if (item.href === pathname) {
        event.preventDefault()
        window.scrollTo({ top: 0, behavior: scrollBehavior() })
      }
      return // next/link navigates and starts the new page at the top
    }
    event.preventDefault()
    if (pathname === '/') {
      window.history.replaceState(null, '', `#${anchor}`)
      void scrollToAnchor(anchor)
    } else {
      router.push(item.href, { scroll: false })
      setTimeout(() => void scrollToAnchor(anchor, { delayMs: ANCHOR_RETRY_MS }), ANCHOR_RETRY_MS)
    }
  }
}
