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

// Browser only, in its own chunk: the Studio (about 2 MB gzip) never runs at build
// time, and its code is fetched only when this component renders, i.e. only on /studio
// in a build with a Sanity project. next/dynamic rather than a hand-written import():
// with it the bundler leaves the other routes' shared chunks almost unchanged.
const StudioScreen = dynamic(() => import('./StudioScreen'), { ssr: false, loading: StudioLoading })

/**
 * The embedded Studio's entry: a small loader that fetches StudioScreen in the browser.
 * @param projectId the Sanity project the build was made for (lib/studio.ts)
 * @param dataset its dataset
 */
export function StudioApp(project: StudioProject) {
  return <StudioScreen {...project} />
}
