'use client'

import dynamic from 'next/dynamic'
import type { StudioProject } from '@/lib/studio'

/** What the exported HTML holds until the Studio's code has loaded. */
function StudioLoading() {
  return (
    <main id="main" className="content-width py-24 text-center">
      <p className="text-lg text-muted">Loading Sanity Studio…</p>
      <noscript>
        <p className="mt-4 font-semibold">Sanity Studio needs JavaScript: turn it on and reload the page.</p>
      </noscript>
    </main>
  )
}

// Browser only, in its own chunk: the Studio's 2 MB gzip loads only here (next/dynamic keeps other routes' chunks as they were).
const StudioScreen = dynamic(() => import('./StudioScreen'), { ssr: false, loading: StudioLoading })

/** The embedded Studio's entry: a small loader that fetches StudioScreen in the browser. */
export function StudioApp(project: StudioProject) {
  return <StudioScreen {...project} />
}
