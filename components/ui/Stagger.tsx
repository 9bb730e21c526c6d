'use client'

import { useEffect, useRef, type ReactNode } from 'react'
import { prefersReducedMotion } from '@/lib/scroll'

/**
 * A card grid whose items stagger in, 0.1 s apart (spec §9), as it enters the
 * viewport. The server HTML is fully visible; only a grid that is still below
 * the viewport when this runs is marked `waiting` (hidden by CSS) until it comes
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
    if (list.getBoundingClientRect().top < window.innerHeight) return // already seen: leave it be
    Array.from(list.children).forEach((item, index) =>
      (item as HTMLElement).style.setProperty('--stagger-index', String(index)),
    )
    list.dataset.stagger = 'waiting'
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return
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
