import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { CaseStudyArticle } from '@/components/case-studies/CaseStudyArticle'
import { JsonLd } from '@/components/seo/JsonLd'
import { getCaseStudy, getCaseStudyPaths, getSiteSettings, inlineIfSmall } from '@/lib/content'
import { pageSource } from '@/lib/content/page-source'
import { sourceFromEnv } from '@/lib/content/source'
import { buildingPreviewServer } from '@/lib/next-target'
import { pagesToRender } from '@/lib/content/render-plan'
import { stegaClean } from 'next-sanity'
import { caseStudyCardName, caseStudyJsonLd, ogImagePath, pageMetadata, siteTitle } from '@/lib/seo'

type Props = { params: Promise<{ slug: string }> }

/** This route, as the build's dependency map names it. */
const ROUTE = '/case-studies/[slug]'

const sourceOf = async (params: Props['params']) => {
  const slug = decodeURIComponent((await params).slug)
  return { slug, source: await pageSource({ route: ROUTE, unit: slug }) }
}

export const dynamicParams = false

/** One page per slug that this build renders (old addresses are the postbuild's redirects); none for the preview server. */
export async function generateStaticParams() {
  if (buildingPreviewServer()) return []
  const paths = await getCaseStudyPaths({ ...sourceFromEnv(), reads: 'paths' })
  return pagesToRender(
    ROUTE,
    paths.map(({ slug }) => slug),
  ).map((slug) => ({ slug }))
}

/** Title and description from the case study; the canonical URL is always the slug's. */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug, source } = await sourceOf(params)
  const [settings, study] = stegaClean(
    await Promise.all([getSiteSettings(source), getCaseStudy(slug, source)]),
  )
  if (!study) notFound()
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

/** /case-studies/{slug} (spec §2); no case study there is the 404 page. */
export default async function CaseStudyPage({ params }: Props) {
  const { slug, source } = await sourceOf(params)
  const [settings, study] = await Promise.all([getSiteSettings(source), getCaseStudy(slug, source)])
  if (!study) notFound()
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
      {/* The image is the page's largest paint on a phone. */}
      <CaseStudyArticle study={{ ...study, image: await inlineIfSmall(study.image) }} />
      <JsonLd data={article} />
    </>
  )
}
