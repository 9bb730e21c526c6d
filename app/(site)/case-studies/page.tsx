import type { Metadata } from 'next'
import { CaseStudyCard } from '@/components/case-studies/CaseStudyCard'
import { CardGridPage } from '@/components/ui/CardGridPage'
import { INLINED_CARDS } from '@/components/ui/ContentImage'
import { sectionPageMetadata } from '@/lib/seo'
import { getCaseStudyCards, getSiteSettings, inlineFirstImages } from '@/lib/content'
import { pageSource } from '@/lib/content/page-source'
import { stegaClean } from 'next-sanity'

/** Title, description (the page's intro) and canonical URL from site settings. */
export async function generateMetadata(): Promise<Metadata> {
  const settings = stegaClean(await getSiteSettings(await pageSource('always')))
  return sectionPageMetadata(settings, {
    title: 'Case Studies',
    intro: settings.caseStudiesIntro,
    path: '/case-studies',
    card: 'case-studies',
  })
}

/** /case-studies (spec §2): the grid of case study cards and a consultation link. */
export default async function CaseStudiesPage() {
  const source = await pageSource('always')
  const [settings, cards] = await Promise.all([getSiteSettings(source), getCaseStudyCards(source)])
  const studies = await inlineFirstImages(cards, INLINED_CARDS)
  return (
    <CardGridPage
      eyebrow="Results"
      title="Case Studies"
      intro={settings.caseStudiesIntro}
      columns="md:grid-cols-2 lg:grid-cols-3"
      items={studies}
      renderCard={(study, priority) => <CaseStudyCard study={study} headingLevel="h2" priority={priority} />}
    />
  )
}
