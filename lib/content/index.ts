/** The content layer's API for routes: each function runs one query and returns plain props (the build's source by default). */
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
import type { ContentImage, ProjectedImage } from './image.ts'
import { contentImageOf } from './preview-images.ts'
import type { MediaAsset } from './media-sync.ts'
import type {
  CaseStudyCardsQueryResult,
  CaseStudyQueryResult,
  ContentDatesQueryResult,
  HomePageQueryResult,
  PortfolioSitesQueryResult,
  SiteSettingsQueryResult,
} from './sanity.types.ts'
import type { BrokenRule } from './draft-vetting.ts'
import {
  isPreviewPerspective,
  layerOf,
  previewView,
  readAllDocuments,
  referencedIds,
  runQuery,
  sourceFromEnv,
  type ContentSource,
} from './source.ts'
import { checkDocument, ContentError, imageAsset, requireFound } from './build-rules.ts'
import { PREVIEW_CONTACT_PATH } from '../publisher-routes.ts'

export type { ContentImage } from './image.ts'
export { inlineFirstImages, inlineIfSmall } from './inline-image.ts'
export { ContentError }

type WithImage<T, K extends keyof T> = Omit<T, K> & { [P in K]: ContentImage }

/** Site-wide settings: brand, hero, section intros, contact details, integrations. */
export type SiteSettings = WithImage<NonNullable<SiteSettingsQueryResult>, 'heroImage'>
export type HomePage = HomePageQueryResult
/** A case study as a card; in a preview, `issueSource` links its computed issue text to the `issue` field. */
export type CaseStudyCard = WithImage<CaseStudyCardsQueryResult[number], 'image'> & { issueSource?: string }
export type CaseStudy = WithImage<NonNullable<CaseStudyQueryResult>, 'image'>
/** A portfolio site on /sites; in a preview, `urlSource` links its computed host to the `url` field. */
export type PortfolioSite = WithImage<PortfolioSitesQueryResult[number], 'image'> & { urlSource?: string }
/** The addresses of one case study: its slug and the legacy id of old links. */
export type CaseStudyPath = { slug: string; legacyId: string }

const imageRules = { image: imageAsset }

/**
 * Documents with a checked image, made a ContentImage; in a preview with stega, `link` holds the
 * `data-sanity` attribute that ties a computed string to the document's field `path`.
 */
async function withImages<T extends { _id: string; image: ProjectedImage }, Link extends string>(
  items: T[],
  source: ContentSource,
  type: string,
  path: string,
  link: Link,
): Promise<(WithImage<T, 'image'> & { [L in Link]?: string })[]> {
  const stega = source.stega && (await import('./stega.ts'))
  return Promise.all(
    items.map(async (item) => ({
      ...checkDocument(item, imageRules),
      image: await contentImageOf(item.image, source),
      ...(stega && { [link]: stega.editAttribute(source.stega!.studioUrl, { id: item._id, type, path }) }),
    })) as Promise<WithImage<T, 'image'> & { [L in Link]?: string }>[],
  )
}

/** The siteSettings singleton. @throws Error when it is missing; ContentError when a field breaks its rule */
export async function getSiteSettings(source: ContentSource = sourceFromEnv()): Promise<SiteSettings> {
  const settings = requireFound(await runQuery(siteSettingsQuery, {}, source), 'siteSettings document')
  checkDocument(settings, { heroImage: imageAsset })
  return {
    ...settings,
    heroImage: await contentImageOf(settings.heroImage, source),
    // A preview (drafts or a release) never sends a visitor's message to the real inbox.
    ...(source.preview || isPreviewPerspective(source.perspective)
      ? { contactWebhookUrl: PREVIEW_CONTACT_PATH }
      : {}),
  }
}

/** Services, audience cards, growth items, FAQs and the two review lists (spec §3). @throws Error when a list is empty */
export async function getHomePage(source: ContentSource = sourceFromEnv()): Promise<HomePage> {
  const home = await runQuery(homePageQuery, {}, source)
  for (const name of Object.keys(home) as (keyof HomePage)[]) requireFound(home[name], name)
  return home
}

/** Case studies as cards, in their editors' order. @throws Error when there are none */
export async function getCaseStudyCards(source: ContentSource = sourceFromEnv()): Promise<CaseStudyCard[]> {
  const cards = requireFound(await runQuery(caseStudyCardsQuery, {}, source), 'case studies')
  return withImages(cards, source, 'caseStudy', 'issue', 'issueSource')
}

/** Slug and legacy id of every case study, for the static routes. @throws Error when there are none */
export async function getCaseStudyPaths(source: ContentSource = sourceFromEnv()): Promise<CaseStudyPath[]> {
  const docs = requireFound(await runQuery(caseStudyPathsQuery, {}, source), 'case studies')
  return docs.map((doc) => ({ slug: doc.slug, legacyId: doc.legacyId }))
}

/** One case study by slug or legacy id, or null. @throws ContentError when its image's asset does not resolve */
export async function getCaseStudy(
  slugOrLegacyId: string,
  source: ContentSource = sourceFromEnv(),
): Promise<CaseStudy | null> {
  const study = await runQuery(caseStudyQuery, { slug: slugOrLegacyId }, source)
  if (!study) return null
  checkDocument(study, imageRules)
  return { ...study, image: await contentImageOf(study.image, source) }
}

/** The portfolio on /sites, in editors' order. @throws Error when there are none; ContentError for a broken image */
export async function getPortfolioSites(source: ContentSource = sourceFromEnv()): Promise<PortfolioSite[]> {
  const sites = requireFound(await runQuery(portfolioSitesQuery, {}, source), 'portfolio sites')
  return withImages(sites, source, 'portfolioSite', 'url', 'urlSource')
}

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

/** Every image asset that content references at any depth (for `syncMedia`), in the dataset's order. */
export async function getMediaAssets(source: ContentSource = sourceFromEnv()): Promise<MediaAsset[]> {
  const referenced = [...referencedIds(await readAllDocuments(source))]
  return runQuery(mediaAssetsQuery, { referenced }, source)
}

/** A draft (or release version) that editors' preview shows in place of its published version. */
export type PreviewDraft = { id: string; type: string; title: string }

/** The vetted drafts a source's perspective shows, newest first, for the banner (none under `published`). */
export async function getPreviewDrafts(source: ContentSource = sourceFromEnv()): Promise<PreviewDraft[]> {
  const view = await previewView(source)
  return (view?.shown ?? []).map((draft) => ({ id: draft.publishedId, type: draft.type, title: draft.title }))
}

/** One rule a draft or release version breaks, so the preview does not show it. */
export type PreviewProblem = BrokenRule & {
  documentId: string
  publishedId: string
  type: string
  title: string
  shown: 'published' | 'nothing'
  release?: string
}

function releaseOf(storedId: string): string | undefined {
  try {
    const layer = layerOf(storedId)
    return layer === 'drafts' || layer === 'published' ? undefined : layer
  } catch {
    return undefined
  }
}

/** Every rule broken by the drafts a source's perspective would show, for the banner, in vetting order. */
export async function getPreviewProblems(source: ContentSource = sourceFromEnv()): Promise<PreviewProblem[]> {
  const rejected = (await previewView(source))?.rejected ?? []
  return rejected.flatMap((draft) => {
    const release = releaseOf(draft.storedId)
    return draft.errors.map((error) => ({
      documentId: draft.storedId,
      publishedId: draft.publishedId,
      type: draft.type,
      title: draft.title,
      ...error,
      shown: draft.instead,
      ...(release ? { release } : {}),
    }))
  })
}
