/**
 * The content layer's public API: what routes call at build time. Each function
 * runs one query from `queries.ts`, validates the result (naming document and
 * field on failure) and returns plain props for components.
 */
import {
  caseStudyCardsQuery,
  caseStudyPathsQuery,
  caseStudyQuery,
  contentDatesQuery,
  homePageQuery,
  mediaAssetsQuery,
  portfolioSitesQuery,
  siteSettingsQuery,
} from './queries.ts'
import { toContentImage, type ContentImage, type MediaAsset } from './media.ts'
import type {
  CaseStudyCardsQueryResult,
  CaseStudyQueryResult,
  ContentDatesQueryResult,
  HomePageQueryResult,
  PortfolioSitesQueryResult,
  SiteSettingsQueryResult,
} from './sanity.types.ts'
import { runQuery, sourceFromEnv, type ContentSource } from './source.ts'
import {
  exactly,
  httpsUrl,
  httpsUrlOrPath,
  image,
  list,
  portableText,
  requireFound,
  text,
  validateDocument,
  ContentError,
} from './validate.ts'

export type { ContentImage } from './media.ts'
export { inlineFirstImages, inlineIfSmall } from './media.ts'
export { ContentError }

type WithImage<T, K extends keyof T> = Omit<T, K> & { [P in K]: ContentImage }

/** Site-wide settings: brand, hero, section intros, contact details, integrations. */
export type SiteSettings = WithImage<NonNullable<SiteSettingsQueryResult>, 'heroImage'>
/** Everything the home page shows besides settings and case studies. */
export type HomePage = HomePageQueryResult
/** A case study as a card: the issue preview is its plain text. */
export type CaseStudyCard = WithImage<CaseStudyCardsQueryResult[number], 'image'>
/** A case study with everything its detail page shows. */
export type CaseStudy = WithImage<NonNullable<CaseStudyQueryResult>, 'image'>
/** A portfolio site on /sites. */
export type PortfolioSite = WithImage<PortfolioSitesQueryResult[number], 'image'>
/** The addresses of one case study: its slug and the legacy id of old links. */
export type CaseStudyPath = { slug: string; legacyId: string }

const caseStudyCardRules = { title: text, slug: text, issueText: text, image }

/**
 * The siteSettings singleton.
 * @throws Error when it is missing; ContentError when a field breaks its rule
 */
export async function getSiteSettings(source: ContentSource = sourceFromEnv()): Promise<SiteSettings> {
  const settings = requireFound(await runQuery(siteSettingsQuery, {}, source), 'siteSettings document')
  validateDocument(settings, {
    brandName: text,
    description: text,
    heroEyebrow: text,
    heroHeadline: text,
    heroSubheadline: text,
    heroImage: image,
    sellingPoints: list({ min: 1, max: 4, of: text }),
    servicesIntro: text,
    audienceIntro: text,
    calculatorIntro: text,
    caseStudiesIntro: text,
    faqIntro: text,
    reviewsIntro: text,
    contactIntro: text,
    consultationIntro: text,
    portfolioIntro: text,
    contactEmail: text,
    contactPhone: text,
    bookingWidgetUrl: httpsUrlOrPath,
    bookingScriptUrl: (value) => (value ? httpsUrlOrPath(value) : null),
    contactWebhookUrl: httpsUrlOrPath,
    siteUrl: httpsUrl,
  })
  return { ...settings, heroImage: toContentImage(settings.heroImage) }
}

/**
 * Services, audience cards, growth items, FAQs and the two review lists
 * (spec §3: the strip holds five, the Reviews section shows four).
 * @throws Error when a list is empty; ContentError on an invalid document
 */
export async function getHomePage(source: ContentSource = sourceFromEnv()): Promise<HomePage> {
  const home = await runQuery(homePageQuery, {}, source)
  const reviewRules = { name: text, business: text, text, stars: exactly(5) }
  const lists = {
    services: { icon: text, title: text, description: text },
    audienceCards: { title: text, description: text },
    growthItems: { title: text, content: text },
    faqs: { question: text, answer: text },
    stripReviews: reviewRules,
    sectionReviews: reviewRules,
  } as const
  for (const [name, rules] of Object.entries(lists) as [keyof HomePage, (typeof lists)[keyof HomePage]][]) {
    for (const doc of requireFound(home[name], name)) validateDocument(doc, rules)
  }
  return home
}

/**
 * Case studies as cards, in their editors' order.
 * @throws Error when there are none (an export without them would be half empty)
 */
export async function getCaseStudyCards(source: ContentSource = sourceFromEnv()): Promise<CaseStudyCard[]> {
  const cards = requireFound(await runQuery(caseStudyCardsQuery, {}, source), 'case studies')
  return cards.map((card) => ({
    ...validateDocument(card, caseStudyCardRules),
    image: toContentImage(card.image),
  }))
}

/**
 * Slug and legacy id of every case study, for the static routes.
 * @throws Error when there are none; ContentError when a slug is not lowercase or two addresses collide
 */
export async function getCaseStudyPaths(source: ContentSource = sourceFromEnv()): Promise<CaseStudyPath[]> {
  const docs = requireFound(await runQuery(caseStudyPathsQuery, {}, source), 'case studies')
  const seen = new Map<string, string>()
  return docs.map((doc) => {
    validateDocument(doc, {
      slug: (value) =>
        text(value) ??
        (/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(String(value))
          ? null
          : 'must be lowercase letters, digits and hyphens'),
      legacyId: text,
    })
    for (const [field, address] of [
      ['slug', doc.slug],
      ['legacyId', doc.legacyId],
    ] as const) {
      const owner = seen.get(address)
      if (owner && owner !== doc._id)
        throw new ContentError(doc._id, field, `"${address}" is already the address of "${owner}"`)
      seen.set(address, doc._id)
    }
    return { slug: doc.slug, legacyId: doc.legacyId }
  })
}

/**
 * One case study by slug or legacy id (spec ids keep working as old links).
 * @returns the case study, or null when none matches
 * @throws ContentError when the matching document is invalid
 */
export async function getCaseStudy(
  slugOrLegacyId: string,
  source: ContentSource = sourceFromEnv(),
): Promise<CaseStudy | null> {
  const study = await runQuery(caseStudyQuery, { slug: slugOrLegacyId }, source)
  if (!study) return null
  validateDocument(study, {
    title: text,
    detailTitle: text,
    slug: text,
    legacyId: text,
    issue: portableText,
    solution: portableText,
    outcome: portableText,
    details: list({ lengths: [3, 5], of: text }),
    image,
  })
  return { ...study, image: toContentImage(study.image) }
}

/**
 * The portfolio on /sites, in editors' order.
 * @throws Error when there are none; ContentError on an invalid document
 */
export async function getPortfolioSites(source: ContentSource = sourceFromEnv()): Promise<PortfolioSite[]> {
  const sites = requireFound(await runQuery(portfolioSitesQuery, {}, source), 'portfolio sites')
  return sites.map((site) => ({
    ...validateDocument(site, { title: text, description: text, url: httpsUrl, image }),
    image: toContentImage(site.image),
  }))
}

/** When the content behind each listing page last changed (ISO dates, null when unknown). */
export type ContentDates = ContentDatesQueryResult

/** The newest `_updatedAt` of the documents each page shows, for the sitemap's `<lastmod>`. */
export async function getContentDates(source: ContentSource = sourceFromEnv()): Promise<ContentDates> {
  return runQuery(contentDatesQuery, {}, source)
}

/** The last change of one case study by slug, for the sitemap (null when it has no date). */
export async function getCaseStudyDates(
  source: ContentSource = sourceFromEnv(),
): Promise<{ slug: string; updatedAt: string | null }[]> {
  const docs = await runQuery(caseStudyPathsQuery, {}, source)
  return docs.map((doc) => ({ slug: doc.slug, updatedAt: doc._updatedAt ?? null }))
}

/** Every image asset that published content references (for `syncMedia`). */
export async function getMediaAssets(source: ContentSource = sourceFromEnv()): Promise<MediaAsset[]> {
  return runQuery(mediaAssetsQuery, {}, source)
}
