/**
 * Every GROQ query of the site, one module (Sanity's template style).
 * Result types are generated from these strings by Sanity TypeGen into
 * `sanity.types.ts` (`npm run typegen`); never write them by hand.
 */
// Imported from 'groq' directly: TypeGen only finds `defineQuery` imported from 'groq' or
// 'next-sanity', never through a re-export of our own; 'groq' is the one of the two that
// loads nothing else (next-sanity's root entry brings Sanity's client, ~0.35 s of every
// build script's start).
import { defineQuery } from 'groq'

// No page's query picks between drafts, release versions and published documents: the
// source's perspective does (lib/content/source.ts). The static export (every build, the
// live site) reads through `published`, so it sees published documents only; editors'
// preview server runs the same queries per request with drafts or a release over them
// (lib/content/page-source.ts). No query names drafts: the preview banner lists the drafts
// of the vetted view (lib/content/draft-vetting.ts), never the drafts as stored.

/**
 * An image field: its alt text, the editor's hotspot (the point a crop keeps in view),
 * and the asset document that supplies the file and its size.
 */
const imageProjection = /* groq */ `{alt, hotspot{x, y}, asset->{_id, url, path, extension, originalFilename, sha1hash, metadata{dimensions{width, height}}}}`

export const siteSettingsQuery = defineQuery(`*[_type == "siteSettings" && _id == "siteSettings"][0]{
  _id,
  _updatedAt,
  brandName,
  description,
  heroEyebrow,
  heroHeadline,
  heroSubheadline,
  heroImage${imageProjection},
  sellingPoints,
  servicesIntro,
  audienceIntro,
  calculatorIntro,
  caseStudiesIntro,
  faqIntro,
  reviewsIntro,
  contactIntro,
  consultationIntro,
  portfolioIntro,
  contactEmail,
  contactPhone,
  bookingWidgetUrl,
  bookingScriptUrl,
  contactWebhookUrl,
  siteUrl
}`)

export const homePageQuery = defineQuery(`{
  "services": *[_type == "service"] | order(order asc){_id, icon, title, description},
  "audienceCards": *[_type == "audienceCard"] | order(order asc){_id, title, description},
  "growthItems": *[_type == "growthItem"] | order(order asc){_id, title, content},
  "faqs": *[_type == "faq"] | order(order asc){_id, question, answer},
  "stripReviews": *[_type == "review" && placement in ["strip", "both"]] | order(order asc)[0...5]{_id, name, business, text, stars},
  "sectionReviews": *[_type == "review" && placement in ["section", "both"]] | order(order asc)[0...4]{_id, name, business, text, stars}
}`)

export const caseStudyCardsQuery = defineQuery(`*[_type == "caseStudy"] | order(order asc){
  _id,
  title,
  "slug": slug.current,
  "issueText": pt::text(issue),
  image${imageProjection}
}`)

export const caseStudyPathsQuery = defineQuery(`*[_type == "caseStudy"] | order(order asc){
  _id,
  _updatedAt,
  "slug": slug.current,
  legacyId
}`)

export const caseStudyQuery =
  defineQuery(`*[_type == "caseStudy" && (slug.current == $slug || legacyId == $slug)][0]{
  _id,
  _updatedAt,
  _createdAt,
  title,
  detailTitle,
  "slug": slug.current,
  legacyId,
  "issueText": pt::text(issue),
  issue,
  solution,
  outcome,
  details,
  image${imageProjection}
}`)

export const portfolioSitesQuery = defineQuery(`*[_type == "portfolioSite"] | order(order asc){
  _id,
  title,
  description,
  url,
  image${imageProjection}
}`)

/**
 * When the content behind each page last changed (documents' `_updatedAt`), for the
 * sitemap's `<lastmod>`: the newest date among the document types a page shows.
 */
export const contentDatesQuery = defineQuery(`{
  "settings": *[_type == "siteSettings" && _id == "siteSettings"][0]._updatedAt,
  "home": *[_type in ["service", "audienceCard", "growthItem", "faq", "review", "caseStudy"]] | order(_updatedAt desc)[0]._updatedAt,
  "caseStudies": *[_type == "caseStudy"] | order(_updatedAt desc)[0]._updatedAt,
  "portfolio": *[_type == "portfolioSite"] | order(_updatedAt desc)[0]._updatedAt
}`)

/**
 * The image assets among `$referenced` (the `_id`s some document references, see
 * `getMediaAssets`): the build copies each into `public/media/`. The same set as
 * `count(*[references(^._id)]) > 0`, which groq-js evaluates one asset x every document
 * at a time: 9 s for the seed plus 200 case studies, against milliseconds this way.
 */
export const mediaAssetsQuery = defineQuery(`*[_type == "sanity.imageAsset" && _id in $referenced]{
  _id, url, path, extension, originalFilename, sha1hash
}`)
