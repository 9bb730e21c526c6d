'use client'

import { lazy, Suspense } from 'react'

/** next/script in a chunk of its own, fetched only where an embed script is set. */
const Script = lazy(() => import('next/script'))

/** The booking provider's embed script, added once the page has loaded: it must not compete with the page's own loading. */
export function BookingScript({ src }: { src: string }) {
  return (
    <Suspense>
      <Script src={src} strategy="lazyOnload" />
    </Suspense>
  )
}
