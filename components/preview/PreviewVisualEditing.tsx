'use client'

import { useRouter } from 'next/navigation'
import { useCallback, useEffect, useRef, useTransition } from 'react'
import { VisualEditing, type VisualEditingProps } from 'next-sanity/visual-editing/client-component'
import { coalesceRefreshes } from '@/lib/preview-refresh'
import { PREVIEW_PERSPECTIVE_PATH } from '@/lib/publisher-routes'

/** One finding of visual editing's check for stega where it breaks things. */
type SuspiciousStegaReport = Parameters<NonNullable<VisualEditingProps['onSuspiciousStega']>>[0][number]

/**
 * Stega found where it breaks things (an attribute, `<head>`, a script, a form value, the
 * address): reported to the console, where the preview's tests and an editor's developer
 * tools read it. React's own payload of the page (`self.__next_f`, the server components'
 * output the client renders from) holds every string the page shows, so it holds their
 * stega too, by design: it is data, never shown or sent anywhere.
 */
export function reportSuspiciousStega(reports: SuspiciousStegaReport[]) {
  const suspicious = reports.filter(
    (report) => !(report.kind === 'script' && report.element?.textContent?.includes('self.__next_f')),
  )
  for (const report of suspicious)
    console.warn(
      `preview: stega in ${report.kind}${report.attribute ? ` [${report.attribute}]` : ''}` +
        `${report.element ? ` of <${report.element.tagName.toLowerCase()}>` : ''}: ${JSON.stringify(report.cleaned.slice(0, 80))}`,
    )
}

/**
 * Sanity's visual editing in an editor's preview (next-sanity's `<VisualEditing />`),
 * rendered only in the preview server's draft mode. Every stega-encoded string (an edit
 * link to its document and field, lib/content/stega.ts) gets a click-to-edit overlay:
 * - in Presentation's frame, a click focuses the field in the Studio beside it; the
 *   address bar follows the page and can navigate it; its perspective switcher sets the
 *   perspective cookie (through the publisher's `PREVIEW_PERSPECTIVE_PATH`, then renders
 *   again); every saved change in the Studio (a `mutation` refresh) renders the page again,
 *   with nothing waiting for a webhook or a build, and renders never pile up: one at a
 *   time, the changes saved meanwhile sharing the next (`coalesceRefreshes`);
 * - outside it (the preview opened on its own), each overlay shows an "Open in Studio"
 *   link to that document and field.
 * Stega where it would break something is reported (`reportSuspiciousStega`).
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
  return (
    <VisualEditing
      refresh={refresh}
      onPerspectiveChange={onPerspectiveChange}
      onSuspiciousStega={reportSuspiciousStega}
    />
  )
}
