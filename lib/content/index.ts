/**
 * The content layer's public API: what routes call. Each function runs one query from
 * `queries.ts` and returns plain props for components. Each takes a `ContentSource`: by
 * default the environment's (`sourceFromEnv`), published documents, which is what the
 * build (the static export) renders; editors' preview server passes its own, drafts or a
 * release over them, per request (lib/content/page-source.ts). The build validated its
 * content before (`content-check.ts`, the build's first step: the Studio schema's rules on every
 * published document); these keep only the build's own rules (`build-rules.ts`): a list a
 * page needs is not empty, an image's asset resolves.
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
import { DocumentId, getVersionNameFromId, isVersionId } from '@sanity/id-utils'
import type { ContentImage } from './image.ts'
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
import {
  isPreviewPerspective,
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
/** Everything the home page shows besides settings and case studies. */
export type HomePage = HomePageQueryResult
/**
 * A case study as a card: the issue preview is its plain text. In an editor's preview,
 * `issueSource` is the `data-sanity` attribute that links the card's preview of the issue
 * (computed text, so no stega of its own) to the `issue` field (`editAttribute`).
 */
export type CaseStudyCard = WithImage<CaseStudyCardsQueryResult[number], 'image'> & { issueSource?: string }
/** A case study with everything its detail page shows. */
export type CaseStudy = WithImage<NonNullable<CaseStudyQueryResult>, 'image'>
/**
 * A portfolio site on /sites. In an editor's preview, `urlSource` links the host the card
 * shows (computed from `url`) to that field, as `CaseStudyCard.issueSource` does.
 */
export type PortfolioSite = WithImage<PortfolioSitesQueryResult[number], 'image'> & { urlSource?: string }
/** The addresses of one case study: its slug and the legacy id of old links. */
export type CaseStudyPath = { slug: string; legacyId: string }

const imageRules = { image: imageAsset }

/**
 * The `data-sanity` attribute for a computed string of a document's field, in an editor's
 * preview (a source with stega); undefined otherwise, so the export has none.
 */
async function sourceAttribute(
  source: ContentSource,
  document: { id: string; type: string; path: string },
): Promise<string | undefined> {
  if (!source.stega) return undefined
  const { editAttribute } = await import('./stega.ts')
  return editAttribute(source.stega.studioUrl, document)
}

/**
 * The siteSettings singleton.
 * @throws Error when it is missing; ContentError when a field breaks its rule
 */
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

/**
 * Services, audience cards, growth items, FAQs and the two review lists
 * (spec §3: the strip holds five, the Reviews section shows four).
 * @throws Error when a list is empty
 */
export async function getHomePage(source: ContentSource = sourceFromEnv()): Promise<HomePage> {
  const home = await runQuery(homePageQuery, {}, source)
  for (const name of Object.keys(home) as (keyof HomePage)[]) requireFound(home[name], name)
  return home
}

/**
 * Case studies as cards, in their editors' order.
 * @throws Error when there are none (an export without them would be half empty)
 */
export async function getCaseStudyCards(source: ContentSource = sourceFromEnv()): Promise<CaseStudyCard[]> {
  const cards = requireFound(await runQuery(caseStudyCardsQuery, {}, source), 'case studies')
  return Promise.all(
    cards.map(async (card) => {
      const issueSource = await sourceAttribute(source, { id: card._id, type: 'caseStudy', path: 'issue' })
      return {
        ...checkDocument(card, imageRules),
        image: await contentImageOf(card.image, source),
        ...(issueSource && { issueSource }),
      }
    }),
  )
}

/**
 * Slug and legacy id of every case study, for the static routes (the schema keeps
 * every address to one case study).
 * @throws Error when there are none
 */
export async function getCaseStudyPaths(source: ContentSource = sourceFromEnv()): Promise<CaseStudyPath[]> {
  const docs = requireFound(await runQuery(caseStudyPathsQuery, {}, source), 'case studies')
  return docs.map((doc) => ({ slug: doc.slug, legacyId: doc.legacyId }))
}

/**
 * One case study by slug or legacy id (spec ids keep working as old links).
 * @returns the case study, or null when none matches
 * @throws ContentError when its image's asset does not resolve
 */
export async function getCaseStudy(
  slugOrLegacyId: string,
  source: ContentSource = sourceFromEnv(),
): Promise<CaseStudy | null> {
  const study = await runQuery(caseStudyQuery, { slug: slugOrLegacyId }, source)
  if (!study) return null
  checkDocument(study, imageRules)
  return { ...study, image: await contentImageOf(study.image, source) }
}

/**
 * The portfolio on /sites, in editors' order.
 * @throws Error when there are none; ContentError when an image's asset does not resolve
 */
export async function getPortfolioSites(source: ContentSource = sourceFromEnv()): Promise<PortfolioSite[]> {
  const sites = requireFound(await runQuery(portfolioSitesQuery, {}, source), 'portfolio sites')
  return Promise.all(
    sites.map(async (site) => {
      const urlSource = await sourceAttribute(source, { id: site._id, type: 'portfolioSite', path: 'url' })
      return {
        ...checkDocument(site, imageRules),
        image: await contentImageOf(site.image, source),
        ...(urlSource && { urlSource }),
      }
    }),
  )
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

/**
 * Every image asset that content references (for `syncMedia`): a reference anywhere in a
 * document, at any depth, as GROQ's `references()` finds it (`referencedIds`).
 * @returns the asset documents, in the dataset's order
 */
export async function getMediaAssets(source: ContentSource = sourceFromEnv()): Promise<MediaAsset[]> {
  const referenced = [...referencedIds(await readAllDocuments(source))]
  return runQuery(mediaAssetsQuery, { referenced }, source)
}

/** A draft (or release version) that editors' preview shows in place of its published version. */
export type PreviewDraft = { id: string; type: string; title: string }

/**
 * The drafts and release versions a source's perspective shows (none under `published`,
 * the build's), for the preview's banner: those the perspective puts over the published
 * documents, one a document, after the vetting (draft-vetting.ts): a draft left out is
 * not here (`getPreviewProblems` lists it).
 * @returns each one's published id, type and a title to read (text from its first title
 *   field that holds some, or its id: `draftTitle`), newest first
 */
export async function getPreviewDrafts(source: ContentSource = sourceFromEnv()): Promise<PreviewDraft[]> {
  const view = await previewView(source)
  return (view?.shown ?? []).map((draft) => ({ id: draft.publishedId, type: draft.type, title: draft.title }))
}

/**
 * One rule a draft or release version breaks, so the preview does not show it (the
 * schema's rules, run on every draft a preview perspective shows: lib/content/draft-vetting.ts).
 */
export type PreviewProblem = {
  /** The draft's id as stored, e.g. `drafts.siteSettings` or `versions.rSpring.review-a`. */
  documentId: string
  /** Its published id, which the Studio's edit intent takes. */
  publishedId: string
  type: string
  title: string
  /** The field path in Sanity's notation, e.g. `issue[_key=="a1"].children[0].text`, or `(document)`. */
  field: string
  /** The same path for the Studio's edit intent to focus; null for the document as a whole. */
  path: string | null
  /** The rule's message, as the Studio words it. */
  message: string
  /** What the preview shows in its place: the published version, or nothing (the page is not there). */
  shown: 'published' | 'nothing'
  /** The release it belongs to, for a release version. */
  release?: string
}

/** The release a stored id is a version in, if any (an id no perspective could place has none). */
function releaseOf(storedId: string): string | undefined {
  try {
    const id = DocumentId(storedId)
    return isVersionId(id) ? getVersionNameFromId(id) : undefined
  } catch {
    return undefined
  }
}

/**
 * Every rule broken by the drafts and release versions a source's perspective would show,
 * for the preview's banner (none under `published`, the build's).
 * @returns one entry a broken rule, in the order the drafts were vetted
 */
export async function getPreviewProblems(source: ContentSource = sourceFromEnv()): Promise<PreviewProblem[]> {
  const rejected = (await previewView(source))?.rejected ?? []
  return rejected.flatMap((draft) => {
    const release = releaseOf(draft.storedId)
    return draft.errors.map((error) => ({
      documentId: draft.storedId,
      publishedId: draft.publishedId,
      type: draft.type,
      title: draft.title,
      field: error.field,
      path: error.path,
      message: error.message,
      shown: draft.instead,
      ...(release ? { release } : {}),
    }))
  })
}
