'use client'

import { useRouter } from 'next/navigation'
import { useCallback, useEffect, useRef, useTransition } from 'react'
import { VisualEditing, type VisualEditingProps } from 'next-sanity/visual-editing/client-component'
import { coalesceRefreshes } from '@/lib/preview-refresh'
import { PREVIEW_PERSPECTIVE_PATH } from '@/lib/publisher-routes'

/**
 * Sanity's visual editing in an editor's preview (next-sanity's `<VisualEditing />`),
 * rendered only in the preview server's draft mode: Presentation's address bar follows
 * the page and can navigate it, its perspective switcher sets the perspective cookie
 * (through the publisher's `PREVIEW_PERSPECTIVE_PATH`, then renders again), click-to-edit overlays mark stega-encoded text, and every saved change
 * in the Studio (a `mutation` refresh) renders the page again at once: nothing waits for
 * a webhook or a build. Renders never pile up: one at a time, and the changes saved
 * meanwhile share the next (`coalesceRefreshes`). Outside Presentation's frame it does nothing.
 */
export function PreviewVisualEditing() {
  const router = useRouter()
  // The transition stays pending until the refreshed page has committed: then the render
  // in flight is over, and Presentation's spinner stops.
  const [rendering, startRendering] = useTransition()
  const committed = useRef<() => void>(undefined)
  useEffect(() => {
    if (rendering) return
    committed.current?.()
    committed.current = undefined
  }, [rendering])
  const renderAgain = useCallback(
    () =>
      new Promise<void>((resolve) => {
        committed.current = resolve
        startRendering(() => router.refresh())
      }),
    [router],
  )
  const requests = useRef<() => Promise<void>>(undefined)
  const refresh = useCallback<NonNullable<VisualEditingProps['refresh']>>(() => {
    requests.current ??= coalesceRefreshes(renderAgain)
    return requests.current().catch((error: unknown) => {
      // The next change renders again; this one is only reported.
      console.error(error)
    })
  }, [renderAgain])
  const onPerspectiveChange = useCallback<NonNullable<VisualEditingProps['onPerspectiveChange']>>(
    async (perspective) => {
      const layers = Array.isArray(perspective) ? perspective.join(',') : perspective
      const answer = await fetch(PREVIEW_PERSPECTIVE_PATH, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ perspective: layers }),
      })
      if (!answer.ok)
        throw new Error(`preview: the publisher refused the perspective "${layers}" (${answer.status})`)
      router.refresh()
    },
    [router],
  )
  return <VisualEditing refresh={refresh} onPerspectiveChange={onPerspectiveChange} />
}
