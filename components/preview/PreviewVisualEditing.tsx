'use client'

import { useRouter } from 'next/navigation'
import { useCallback, useEffect, useRef, useTransition } from 'react'
import { VisualEditing, type VisualEditingProps } from 'next-sanity/visual-editing/client-component'
import { coalesceRefreshes } from '@/lib/preview-refresh'
import { PREVIEW_PERSPECTIVE_PATH } from '@/lib/publisher-routes'

type SuspiciousStegaReport = Parameters<NonNullable<VisualEditingProps['onSuspiciousStega']>>[0][number]

/** Logs stega found where it breaks things (the preview's tests read it); React's payload (`self.__next_f`) holds it by design. */
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

/** Sanity's visual editing in an editor's preview: overlays, perspective switch, and one render at a time on saved changes. */
export function PreviewVisualEditing() {
  const router = useRouter()
  // Pending until the refreshed page commits: only then does Presentation's spinner stop.
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
