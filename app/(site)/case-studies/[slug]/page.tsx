import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { CaseStudyArticle } from '@/components/case-studies/CaseStudyArticle'
import { JsonLd } from '@/components/seo/JsonLd'
import { getCaseStudy, getCaseStudyPaths, getSiteSettings, inlineIfSmall } from '@/lib/content'
import { pageSource } from '@/lib/content/page-source'
import { sourceFromEnv } from '@/lib/content/source'
import { buildingPreviewServer } from '@/lib/next-target'
import { pagesToRender } from '@/lib/reused-pages'
import { stegaClean } from 'next-sanity'
import { caseStudyCardName, caseStudyJsonLd, ogImagePath, pageMetadata, siteTitle } from '@/lib/seo'

type Props = { params: Promise<{ slug: string }> }

/** This route, as the build's dependency map names it (lib/content/reads.ts). */
const ROUTE = '/case-studies/[slug]'

/** The page's own content source: its reads are this page's in the dependency map. */
const sourceOf = async (params: Props['params']) => {
  const slug = decodeURIComponent((await params).slug)
  return { slug, source: await pageSource({ route: ROUTE, unit: slug }) }
}

/** Only the case studies in the dataset exist; any other path is the 404 page. */
export const dynamicParams = false

/**
 * One page per slug, nothing more. Old links (a legacy id such as 'Osteopath Lancing', a
 * slug an editor replaced) keep working as permanent redirects to it, which the postbuild
 * writes (postbuild/redirects-file.ts), not as copies of the page. The preview server, in
 * draft mode, still renders a legacy id on request, with the slug's canonical URL.
 * A publish renders only the pages its change touched (lib/reused-pages.ts). The preview
 * server's build prerenders none (lib/next-target.ts): in draft mode every slug renders on
 * request.
 */
export async function generateStaticParams() {
  if (buildingPreviewServer()) return []
  const paths = await getCaseStudyPaths({ ...sourceFromEnv(), reads: 'paths' })
  return pagesToRender(
    ROUTE,
    paths.map(({ slug }) => slug),
  ).map((slug) => ({ slug }))
}

/**
 * Title and description from the case study; the canonical URL is the slug's, also
 * on the pages of legacy ids, so search engines index one address per case study.
 */
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

/**
 * /case-studies/{slug} (spec §2): the case study. No case study at that address (in the
 * preview: none in its perspective, or a draft-only one that breaks a rule) is the 404
 * page, status 404, as the export's `dynamicParams = false` gives visitors.
 */
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
      <JsonLd data={article} />
      {/* The image is the page's largest paint on a phone: inlined when small (inlineIfSmall). */}
      <CaseStudyArticle study={{ ...study, image: await inlineIfSmall(study.image) }} />
    </>
  )
}
