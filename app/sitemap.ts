import type { MetadataRoute } from 'next'
import { getCaseStudyDates, getContentDates, getSiteSettings } from '@/lib/content'
import { sourceFromEnv } from '@/lib/content/source'
import { caseStudyHref, SITE_PAGES } from '@/lib/routes'

export const dynamic = 'force-static'

/** The newest of some ISO dates; undefined when none is known. */
function newest(...dates: (string | null | undefined)[]): string | undefined {
  const known = dates.filter((date): date is string => Boolean(date)).sort()
  return known.at(-1)
}

/** /sitemap.xml: every canonical address, `<lastmod>` from the documents it shows (site settings on every page). */
export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const source = { ...sourceFromEnv(), reads: 'always' as const }
  const [settings, dates, caseStudies] = await Promise.all([
    getSiteSettings(source),
    getContentDates(source),
    getCaseStudyDates(source),
  ])
  const pages: [string, string | undefined][] = [
    ...Object.values(SITE_PAGES).map((page): [string, string | undefined] => [
      page.href,
      newest(dates.settings, dates[page.datedBy]),
    ]),
    ...caseStudies.map(({ slug, updatedAt }): [string, string | undefined] => [
      caseStudyHref(slug),
      newest(dates.settings, updatedAt),
    ]),
  ]
  return pages.map(([path, lastModified]) => ({
    url: new URL(path, settings.siteUrl).href,
    ...(lastModified ? { lastModified } : {}),
  }))
}
