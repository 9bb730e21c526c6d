'use client'

import { useEffect, useRef, type ReactNode } from 'react'
import { prefersReducedMotion } from '@/lib/scroll'

/**
 * A card grid whose items stagger in, 0.1 s apart (spec §9), as it enters the
 * viewport. The server HTML is fully visible; only a grid that the observer's
 * first report finds below the viewport, or not rendered yet (its section is skipped
 * by `content-visibility: auto`), is marked `waiting` (hidden by CSS) until it comes
 * into view. Nothing happens under reduced motion or without IntersectionObserver.
 * Opacity and transform only: no layout shift.
 * @param className the list's classes (its grid layout)
 * @param children the `<li>` items
 */
export function StaggerList({ className, children }: { className?: string; children: ReactNode }) {
  const ref = useRef<HTMLUListElement>(null)

  useEffect(() => {
    const list = ref.current
    if (!list || typeof IntersectionObserver === 'undefined') return
    if (prefersReducedMotion()) return
    // The observer's first report says where the grid is, without forcing a layout
    // during hydration (getBoundingClientRect here laid out the whole page).
    let placed = false
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries[entries.length - 1]
        if (!entry) return
        if (!placed) {
          placed = true
          // A grid in a section the browser has not rendered yet (content-visibility:
          // auto, `.render-when-near`) reports an empty rectangle: it is not on screen.
          const { top, width, height } = entry.boundingClientRect
          const rendered = width > 0 || height > 0
          if (rendered && top < window.innerHeight) {
            observer.disconnect() // already seen: leave it be
            return
          }
          Array.from(list.children).forEach((item, index) =>
            (item as HTMLElement).style.setProperty('--stagger-index', String(index)),
          )
          list.dataset.stagger = 'waiting'
          return
        }
        if (!entry.isIntersecting) return
        list.dataset.stagger = 'in'
        observer.disconnect()
      },
      { rootMargin: '0px 0px -10% 0px' },
    )
    observer.observe(list)
    return () => {
      observer.disconnect()
      delete list.dataset.stagger
    }
  }, [])

  return (
    <ul ref={ref} className={className}>
      {children}
    </ul>
  )
}
