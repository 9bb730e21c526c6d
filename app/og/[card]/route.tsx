import { ogCardImage } from '@/components/og/OgCard'
import { getCaseStudy, getCaseStudyPaths, getSiteSettings } from '@/lib/content'
import { sourceFromEnv } from '@/lib/content/source'
import { buildingPreviewServer } from '@/lib/next-target'
import { pagesToRender } from '@/lib/content/render-plan'
import { OG_PAGE_CARDS, caseStudyCardName } from '@/lib/seo'

type Context = { params: Promise<{ card: string }> }

export const dynamic = 'force-static'
export const dynamicParams = false

/** This route, as the build's dependency map names it. */
const ROUTE = '/og/[card]'

/** A card per page kind and per case study that this build draws, named `.png` so any static host serves image/png. */
export async function generateStaticParams() {
  if (buildingPreviewServer()) return []
  const studies = await getCaseStudyPaths({ ...sourceFromEnv(), reads: 'paths' })
  const cards = [...Object.keys(OG_PAGE_CARDS), ...studies.map(({ slug }) => caseStudyCardName(slug))]
  return pagesToRender(
    ROUTE,
    cards.map((card) => `${card}.png`),
  ).map((card) => ({ card }))
}

/** /og/<name>.png: the card, drawn at build time from site settings or the case study. */
export async function GET(_request: Request, { params }: Context) {
  const card = (await params).card
  const name = card.replace(/\.png$/, '')
  const source = { ...sourceFromEnv(), reads: { route: ROUTE, unit: card } }
  const settings = await getSiteSettings(source)
  const host = new URL(settings.siteUrl).host
  const page = OG_PAGE_CARDS[name as keyof typeof OG_PAGE_CARDS]
  if (page) {
    return ogCardImage({
      brandName: settings.brandName,
      eyebrow: page.eyebrow ?? settings.heroEyebrow,
      title: settings[page.titleField],
      host,
      imageSrc: page.withHeroImage ? settings.heroImage.src : undefined,
    })
  }
  const study = await getCaseStudy(name.replace(/^case-study-/, ''), source)
  if (!study) throw new Error(`No share card called "${name}"`)
  return ogCardImage({
    brandName: settings.brandName,
    eyebrow: 'Case Study',
    title: study.detailTitle,
    host,
    imageSrc: study.image.src,
  })
}
