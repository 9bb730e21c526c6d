import type { Metadata } from 'next'
import { PortfolioCard } from '@/components/portfolio/PortfolioCard'
import { ConsultationButton } from '@/components/ui/ButtonLink'
import { PageHeader } from '@/components/ui/PageHeader'
import { getPortfolioSites, getSiteSettings } from '@/lib/content'
import { StaggerList } from '@/components/ui/Stagger'

export const metadata: Metadata = { title: 'Our Portfolio' }

/** /sites (spec §2): 'Our Portfolio', six external sites, and a consultation link. */
export default async function SitesPage() {
  const [settings, sites] = await Promise.all([getSiteSettings(), getPortfolioSites()])
  return (
    <>
      <PageHeader eyebrow="Sites" title="Our Portfolio" intro={settings.portfolioIntro} />
      <div className="content-width pb-20 md:pb-28">
        <StaggerList className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {sites.map((site) => (
            <li key={site._id}>
              <PortfolioCard site={site} />
            </li>
          ))}
        </StaggerList>
        <ConsultationButton className="mt-12" />
      </div>
    </>
  )
}
