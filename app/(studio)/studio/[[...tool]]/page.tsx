import type { Metadata, Viewport } from 'next'
import { StudioSetupNotice } from '@/components/studio/StudioSetupNotice'
import { studioProjectFromEnv } from '@/lib/studio'
import { StudioApp } from './StudioApp'

// One static page: the server answers every Studio path with it, the Studio's router reads the path.
export const dynamic = 'force-static'
export const dynamicParams = false

export function generateStaticParams() {
  return [{ tool: [] }]
}

/** Staff tools are not for search engines; links out of the Studio send no path. */
export const metadata: Metadata = {
  title: 'Sanity Studio',
  robots: { index: false, follow: false },
  referrer: 'same-origin',
}

export const viewport: Viewport = { viewportFit: 'cover' }

/** /studio: Sanity Studio when the build had a Sanity project, else a page saying what to set. */
export default function StudioPage() {
  const project = studioProjectFromEnv()
  return project ? (
    <StudioApp projectId={project.projectId} dataset={project.dataset} />
  ) : (
    <StudioSetupNotice />
  )
}
