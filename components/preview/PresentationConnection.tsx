'use client'

// The client component alone: next-sanity's default export adds server actions, which a
// static export cannot have.
import { VisualEditing } from 'next-sanity/visual-editing/client-component'
import { Suspense } from 'react'
import { HEALTH_PATH, waitForPreviewBuild } from '@/lib/preview-rebuild'

/** Reloads the page; the promise never settles, since the page goes away. */
const reload = () => {
  window.location.reload()
  return new Promise<void>(() => {})
}

/**
 * Presentation's refresh: after a draft changes, reload once the publisher's next
 * preview build is ready; the frame's own reload button reloads at once.
 */
function refresh(payload: { source: string }): Promise<void> {
  if (payload.source !== 'mutation') return reload()
  const health = async () => (await fetch(HEALTH_PATH, { cache: 'no-store' })).json()
  return waitForPreviewBuild(health).then(reload, (error: Error) => {
    console.error(`preview: ${error.message}; reloading now`)
    return reload()
  })
}

/**
 * Connects a preview page to the Studio's Presentation tool when it is framed there
 * (Sanity's visual editing, through next-sanity): the tool follows the page as the
 * editor navigates, and a changed draft reloads the page once its preview build is
 * ready. Outside the Studio it does nothing. Only preview builds carry it: visitors'
 * builds resolve this module to an empty one (next.config.mjs).
 */
export function PresentationConnection() {
  // VisualEditing reads the search params, which a static page only knows in the browser.
  return (
    <Suspense fallback={null}>
      <VisualEditing refresh={refresh} />
    </Suspense>
  )
}
