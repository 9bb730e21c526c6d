/**
 * Motion and scrolling helpers for the browser (navigation menu, splash, card
 * grids). Smooth unless the visitor asked for reduced motion.
 */

/** Whether the visitor asked for reduced motion (`prefers-reduced-motion: reduce`); false on the server. */
export function prefersReducedMotion(): boolean {
  return (
    typeof window !== 'undefined' && Boolean(window.matchMedia?.('(prefers-reduced-motion: reduce)').matches)
  )
}

/** 'auto' under reduced motion, else 'smooth'. */
export function scrollBehavior(): ScrollBehavior {
  return prefersReducedMotion() ? 'auto' : 'smooth'
}

/**
 * Scrolls to the element with this id (its `scroll-margin-top` keeps the heading
 * clear of the fixed bar). When it is not on the page yet (e.g. just after a route
 * change), tries again every `delayMs` (spec §9: 100 ms), up to `attempts` times.
 * @param id element id without '#'
 * @returns whether the element was found
 */
export function scrollToAnchor(
  id: string,
  { attempts = 10, delayMs = 100 }: { attempts?: number; delayMs?: number } = {},
): Promise<boolean> {
  return new Promise((resolve) => {
    const attempt = (left: number) => {
      const target = document.getElementById(id)
      if (target) {
        target.scrollIntoView({ behavior: scrollBehavior(), block: 'start' })
        return resolve(true)
      }
      if (left <= 1) return resolve(false)
      setTimeout(() => attempt(left - 1), delayMs)
    }
    attempt(attempts)
  })
}
