import type { MetadataRoute } from 'next'
import { getSiteSettings } from '@/lib/content'

export const dynamic = 'force-static'

/** /robots.txt: everything may be crawled except the Studio and the booking stand-in; points at the sitemap. */
export default async function robots(): Promise<MetadataRoute.Robots> {
  const settings = await getSiteSettings()
  return {
    rules: { userAgent: '*', allow: '/', disallow: ['/studio', '/booking/'] },
    sitemap: new URL('/sitemap.xml', settings.siteUrl).href,
  }
}
