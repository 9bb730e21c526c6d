/** Every GROQ query of the site; TypeGen makes their result types (`npm run typegen`). No query picks drafts: the perspective does. */
// From 'groq': TypeGen finds `defineQuery` only there or in 'next-sanity', which loads Sanity's client (~0.35 s).
import { defineQuery } from 'groq'
/** An image field: alt text, the editor's hotspot, and the asset document with its file and size. */
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

/** When the content behind each page last changed, for the sitemap's `<lastmod>`. */
export const contentDatesQuery = defineQuery(`{
  "settings": *[_type == "siteSettings" && _id == "siteSettings"][0]._updatedAt,
  "home": *[_type in ["service", "audienceCard", "growthItem", "faq", "review", "caseStudy"]] | order(_updatedAt desc)[0]._updatedAt,
  "caseStudies": *[_type == "caseStudy"] | order(_updatedAt desc)[0]._updatedAt,
  "portfolio": *[_type == "portfolioSite"] | order(_updatedAt desc)[0]._updatedAt
}`)

/**
 * The image assets among `$referenced`: the same set as `count(*[references(^._id)]) > 0`, which
 * groq-js evaluates one asset x every document at a time (seconds, against milliseconds).
 */
export const mediaAssetsQuery = defineQuery(`*[_type == "sanity.imageAsset" && _id in $referenced]{
  _id, url, path, extension, originalFilename, sha1hash
}`)
