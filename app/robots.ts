import type { MetadataRoute } from 'next'
import { getSiteSettings } from '@/lib/content'
import { sourceFromEnv } from '@/lib/content/source'
import { STUDIO_BASE_PATH } from '@/lib/studio'

export const dynamic = 'force-static'

/** /robots.txt: everything may be crawled except the Studio and the booking stand-in; points at the sitemap. */
export default async function robots(): Promise<MetadataRoute.Robots> {
  // Rendered by every build (lib/content/reads.ts).
  const settings = await getSiteSettings({ ...sourceFromEnv(), reads: 'always' })
  return {
    rules: { userAgent: '*', allow: '/', disallow: [STUDIO_BASE_PATH, '/booking/'] },
    sitemap: new URL('/sitemap.xml', settings.siteUrl).href,
  }
}
