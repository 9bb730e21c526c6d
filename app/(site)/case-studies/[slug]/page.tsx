import type { Metadata } from 'next'
import { CaseStudyArticle } from '@/components/case-studies/CaseStudyArticle'
import { CaseStudyNotFound } from '@/components/case-studies/CaseStudyNotFound'
import { JsonLd } from '@/components/seo/JsonLd'
import { getCaseStudy, getCaseStudyPaths, getSiteSettings, inlineIfSmall } from '@/lib/content'
import { pageSource } from '@/lib/content/page-source'
import { stegaClean } from 'next-sanity'
import { caseStudyCardName, caseStudyJsonLd, ogImagePath, pageMetadata, siteTitle } from '@/lib/seo'

type Props = { params: Promise<{ slug: string }> }

/** Only the case studies in the dataset exist; any other path is the 404 page. */
export const dynamicParams = false

/**
 * One page per slug, nothing more. Old links (a legacy id such as 'Osteopath Lancing', a
 * slug an editor replaced) keep working as permanent redirects to it, which the postbuild
 * writes (postbuild/redirects-file.ts), not as copies of the page. The preview server, in
 * draft mode, still renders a legacy id on request, with the slug's canonical URL.
 */
export async function generateStaticParams() {
  const paths = await getCaseStudyPaths()
  return paths.map(({ slug }) => ({ slug }))
}

/**
 * Title and description from the case study; the canonical URL is the slug's, also
 * on the pages of legacy ids, so search engines index one address per case study.
 */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const source = await pageSource()
  const [settings, study] = stegaClean(
    await Promise.all([
      getSiteSettings(source),
      getCaseStudy(decodeURIComponent((await params).slug), source),
    ]),
  )
  if (!study) return { title: 'Case study not found', robots: { index: false } }
  return pageMetadata({
    title: study.detailTitle,
    description: study.issueText,
    path: `/case-studies/${study.slug}`,
    brandName: settings.brandName,
    defaultTitle: siteTitle(settings),
    image: ogImagePath(caseStudyCardName(study.slug)),
    imageAlt: `Case study: ${study.detailTitle}`,
    type: 'article',
  })
}

/** /case-studies/{slug} (spec §2): the case study, or 'Case study not found.' */
export default async function CaseStudyPage({ params }: Props) {
  const source = await pageSource()
  const [settings, study] = await Promise.all([
    getSiteSettings(source),
    getCaseStudy(decodeURIComponent((await params).slug), source),
  ])
  if (!study) return <CaseStudyNotFound />
  const article = caseStudyJsonLd(
    {
      slug: study.slug,
      headline: study.detailTitle,
      description: study.issueText,
      imageSrc: study.image.src,
      createdAt: study._createdAt,
      updatedAt: study._updatedAt,
    },
    settings,
  )
  return (
    <>
      <JsonLd data={article} />
      {/* The image is the page's largest paint on a phone: inlined when small (inlineIfSmall). */}
      <CaseStudyArticle study={{ ...study, image: await inlineIfSmall(study.image) }} />
    </>
  )
}
