'use client'

import { useEffect, useRef, type ReactNode } from 'react'
import { prefersReducedMotion } from '@/lib/scroll'

/** A card grid whose `<li>` items stagger in (spec §9) when it enters the viewport, if it started below it. */
export function StaggerList({ className, children }: { className?: string; children: ReactNode }) {
  const ref = useRef<HTMLUListElement>(null)

  useEffect(() => {
    const list = ref.current
    if (!list || typeof IntersectionObserver === 'undefined') return
    if (prefersReducedMotion()) return
    // Its first report places the grid without forcing a layout during hydration.
    let placed = false
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries[entries.length - 1]
        if (!entry) return
        if (!placed) {
          placed = true
          // A section not rendered yet (`.render-when-near`) reports an empty rectangle.
          const { top, width, height } = entry.boundingClientRect
          const rendered = width > 0 || height > 0
          if (rendered && top < window.innerHeight) {
            observer.disconnect()
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
