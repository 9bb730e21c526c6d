'use client'

import { useRouter } from 'next/navigation'
import { useCallback } from 'react'
import { VisualEditing, type VisualEditingProps } from 'next-sanity/visual-editing/client-component'
import { PREVIEW_PERSPECTIVE_PATH } from '@/lib/publisher-routes'

/**
 * How long a refresh keeps Presentation's spinner up, in ms: the server renders the
 * page again (the preview reads the dataset on every request), which takes well under this.
 */
const REFRESH_SETTLES_MS = 1000

/**
 * Sanity's visual editing in an editor's preview (next-sanity's `<VisualEditing />`),
 * rendered only in the preview server's draft mode: Presentation's address bar follows
 * the page and can navigate it, its perspective switcher sets the perspective cookie
 * (through the publisher's `PREVIEW_PERSPECTIVE_PATH`, then renders again), click-to-edit overlays mark stega-encoded text, and every saved change
 * in the Studio (a `mutation` refresh) renders the page again at once: nothing waits for
 * a webhook or a build. Outside Presentation's frame it does nothing.
 */
export function PreviewVisualEditing() {
  const router = useRouter()
  const refresh = useCallback<NonNullable<VisualEditingProps['refresh']>>(() => {
    router.refresh()
    return new Promise<void>((resolve) => setTimeout(resolve, REFRESH_SETTLES_MS))
  }, [router])
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
