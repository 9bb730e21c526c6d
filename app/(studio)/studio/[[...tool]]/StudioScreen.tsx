'use client'

import { NextStudio } from 'next-sanity/studio'
import { useEffect, useMemo, useRef, type CSSProperties } from 'react'
import { createStudioConfig } from '@/studio/sanity.config'
import { STUDIO_BASE_PATH, type StudioProject } from '@/lib/studio'

// Inline style, not utility classes: the site's shared stylesheet stays as it is.
const fullScreen: CSSProperties = { position: 'fixed', inset: 0, zIndex: 100, background: '#fff' }

/** Sanity Studio full screen, the rest of the page inert and still so keyboard and screen reader users stay inside. */
export default function StudioScreen({ projectId, dataset }: StudioProject) {
  const config = useMemo(
    // The site's own origin serves the publisher's publish states (absent on a CDN: no badge).
    () => createStudioConfig({ projectId, dataset, basePath: STUDIO_BASE_PATH, publisherUrl: '' }),
    [projectId, dataset],
  )
  const screen = useRef<HTMLDivElement>(null)

  useEffect(() => {
    const own = screen.current
    const others = [...document.body.children].filter(
      (child): child is HTMLElement => child instanceof HTMLElement && !child.contains(own) && !child.inert,
    )
    for (const other of others) other.inert = true
    const overflow = document.documentElement.style.overflow
    document.documentElement.style.overflow = 'hidden'
    return () => {
      for (const other of others) other.inert = false
      document.documentElement.style.overflow = overflow
    }
  }, [])

  return (
    <div ref={screen} style={fullScreen}>
      <NextStudio config={config} />
    </div>
  )
}
