import type { Metadata, Viewport } from 'next'
import { StudioSetupNotice } from '@/components/studio/StudioSetupNotice'
import { studioProjectFromEnv } from '@/lib/studio'
import { StudioApp } from './StudioApp'

// One static page: every Studio path (/studio/structure/review, …) is answered by the
// server with this file (out/studio.html), and the Studio's router reads the path.
export const dynamic = 'force-static'
export const dynamicParams = false

/** Only /studio itself is exported; deeper paths fall back to it on the server. */
export function generateStaticParams() {
  return [{ tool: [] }]
}

/** Staff tools are not for search engines; links out of the Studio send no path. */
export const metadata: Metadata = {
  title: 'Sanity Studio',
  robots: { index: false, follow: false },
  referrer: 'same-origin',
}

/** The Studio fills notched phone screens (next-sanity's studio viewport). */
export const viewport: Viewport = { viewportFit: 'cover' }

/**
 * /studio: Sanity Studio, when the build had a Sanity project (lib/studio.ts reads
 * SANITY_STUDIO_PROJECT_ID or SANITY_PROJECT_ID); otherwise a short page saying what
 * to set. The Studio's JavaScript belongs to this route alone.
 */
export default function StudioPage() {
  const project = studioProjectFromEnv()
  return project ? (
    <StudioApp projectId={project.projectId} dataset={project.dataset} />
  ) : (
    <StudioSetupNotice />
  )
}
