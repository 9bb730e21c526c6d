import type { Metadata } from 'next'
import { PortfolioCard } from '@/components/portfolio/PortfolioCard'
import { CardGridPage } from '@/components/ui/CardGridPage'
import { INLINED_CARDS } from '@/components/ui/ContentImage'
import { sectionPageMetadata } from '@/lib/seo'
import { getPortfolioSites, getSiteSettings, inlineFirstImages } from '@/lib/content'
import { pageSource } from '@/lib/content/page-source'
import { stegaClean } from 'next-sanity'

/** Title, description (the page's intro) and canonical URL from site settings. */
export async function generateMetadata(): Promise<Metadata> {
  const settings = stegaClean(await getSiteSettings(await pageSource('always')))
  return sectionPageMetadata(settings, {
    title: 'Our Portfolio',
    intro: settings.portfolioIntro,
    path: '/sites',
    card: 'sites',
  })
}

/** /sites (spec §2): 'Our Portfolio', six external sites, and a consultation link. */
export default async function SitesPage() {
  const source = await pageSource('always')
  const [settings, portfolio] = await Promise.all([getSiteSettings(source), getPortfolioSites(source)])
  const sites = await inlineFirstImages(portfolio, INLINED_CARDS)
  return (
    <CardGridPage
      eyebrow="Sites"
      title="Our Portfolio"
      intro={settings.portfolioIntro}
      columns="sm:grid-cols-2 lg:grid-cols-3"
      items={sites}
      renderCard={(site, priority) => <PortfolioCard site={site} priority={priority} />}
    />
  )
}
