import type { Metadata } from 'next'
import { CaseStudyCard } from '@/components/case-studies/CaseStudyCard'
import { ConsultationButton } from '@/components/ui/ButtonLink'
import { ABOVE_THE_FOLD_CARDS, INLINED_CARDS } from '@/components/ui/ContentImage'
import { PageHeader } from '@/components/ui/PageHeader'
import { sectionPageMetadata } from '@/lib/seo'
import { getCaseStudyCards, getSiteSettings, inlineFirstImages } from '@/lib/content'
import { StaggerList } from '@/components/ui/Stagger'

/** Title, description (the page's intro) and canonical URL from site settings. */
export async function generateMetadata(): Promise<Metadata> {
  const settings = await getSiteSettings()
  return sectionPageMetadata(settings, {
    title: 'Case Studies',
    intro: settings.caseStudiesIntro,
    path: '/case-studies',
    card: 'case-studies',
  })
}

/** /case-studies (spec §2): the grid of case study cards and a consultation link. */
export default async function CaseStudiesPage() {
  const [settings, cards] = await Promise.all([getSiteSettings(), getCaseStudyCards()])
  const studies = await inlineFirstImages(cards, INLINED_CARDS)
  return (
    <>
      <PageHeader eyebrow="Results" title="Case Studies" intro={settings.caseStudiesIntro} />
      <div className="content-width pb-20 md:pb-28">
        <StaggerList className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {studies.map((study, index) => (
            <li key={study._id}>
              <CaseStudyCard study={study} headingLevel="h2" priority={index < ABOVE_THE_FOLD_CARDS} />
            </li>
          ))}
        </StaggerList>
        <ConsultationButton className="mt-12" />
      </div>
    </>
  )
}
