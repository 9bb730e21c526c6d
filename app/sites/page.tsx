import type { Metadata } from 'next'
import { PortfolioCard } from '@/components/portfolio/PortfolioCard'
import { ConsultationButton } from '@/components/ui/ButtonLink'
import { ABOVE_THE_FOLD_CARDS, INLINED_CARDS } from '@/components/ui/ContentImage'
import { PageHeader } from '@/components/ui/PageHeader'
import { sectionPageMetadata } from '@/lib/seo'
import { getPortfolioSites, getSiteSettings, inlineFirstImages } from '@/lib/content'
import { StaggerList } from '@/components/ui/Stagger'

/** Title, description (the page's intro) and canonical URL from site settings. */
export async function generateMetadata(): Promise<Metadata> {
  const settings = await getSiteSettings()
  return sectionPageMetadata(settings, {
    title: 'Our Portfolio',
    intro: settings.portfolioIntro,
    path: '/sites',
    card: 'sites',
  })
}

/** /sites (spec §2): 'Our Portfolio', six external sites, and a consultation link. */
export default async function SitesPage() {
  const [settings, portfolio] = await Promise.all([getSiteSettings(), getPortfolioSites()])
  const sites = await inlineFirstImages(portfolio, INLINED_CARDS)
  return (
    <>
      <PageHeader eyebrow="Sites" title="Our Portfolio" intro={settings.portfolioIntro} />
      <div className="content-width pb-20 md:pb-28">
        <StaggerList className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {sites.map((site, index) => (
            <li key={site._id}>
              <PortfolioCard site={site} priority={index < ABOVE_THE_FOLD_CARDS} />
            </li>
          ))}
        </StaggerList>
        <ConsultationButton className="mt-12" />
      </div>
    </>
  )
}
