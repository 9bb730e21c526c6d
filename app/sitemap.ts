import type { MetadataRoute } from 'next'
import { getCaseStudyPaths, getSiteSettings } from '@/lib/content'

export const dynamic = 'force-static'

/** /sitemap.xml: every page at its canonical address (case studies by slug, not legacy id). */
export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const [settings, caseStudies] = await Promise.all([getSiteSettings(), getCaseStudyPaths()])
  const paths = [
    '/',
    '/case-studies',
    '/sites',
    '/consultation',
    ...caseStudies.map(({ slug }) => `/case-studies/${slug}`),
  ]
  return paths.map((path) => ({ url: new URL(path, settings.siteUrl).href }))
}
