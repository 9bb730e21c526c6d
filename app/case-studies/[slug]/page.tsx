import type { Metadata } from 'next'
import { CaseStudyArticle } from '@/components/case-studies/CaseStudyArticle'
import { CaseStudyNotFound } from '@/components/case-studies/CaseStudyNotFound'
import { getCaseStudy, getCaseStudyPaths } from '@/lib/content'

type Props = { params: Promise<{ slug: string }> }

/** Only the case studies in the dataset exist; any other path is the 404 page. */
export const dynamicParams = false

/**
 * One page per slug, plus one per legacy id (spec ids such as 'Osteopath Lancing')
 * so that old links keep working; legacy pages point search engines at the slug.
 */
export async function generateStaticParams() {
  const paths = await getCaseStudyPaths()
  return paths.flatMap(({ slug, legacyId }) =>
    legacyId === slug ? [{ slug }] : [{ slug }, { slug: legacyId }],
  )
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const study = await getCaseStudy(decodeURIComponent((await params).slug))
  if (!study) return { title: 'Case study not found' }
  return { title: study.detailTitle, alternates: { canonical: `/case-studies/${study.slug}` } }
}

/** /case-studies/{slug} (spec §2): the case study, or 'Case study not found.' */
export default async function CaseStudyPage({ params }: Props) {
  const study = await getCaseStudy(decodeURIComponent((await params).slug))
  return study ? <CaseStudyArticle study={study} /> : <CaseStudyNotFound />
}
