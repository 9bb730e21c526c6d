/**
 * Search and sharing metadata as pure functions of content: page descriptions and
 * the schema.org JSON-LD objects (typed with schema-dts) that pages embed as
 * `<script type="application/ld+json">`. No content source here: callers pass
 * what the content layer returned.
 *
 * Everything returned is clean of stega, whatever it is given: in an editor's preview the
 * content's strings carry Sanity's invisible edit links, and metadata and JSON-LD are never
 * overlays (they sit in `<head>` or are read by machines; an encoded URL or title is a
 * wrong one). Each builder cleans what it takes. `stegaClean` comes from
 * `@sanity/client/stega`, what next-sanity re-exports.
 */
import { stegaClean } from '@sanity/client/stega'
import type { Metadata } from 'next'
import type { Article, FAQPage, ProfessionalService, WithContext } from 'schema-dts'
import { excerpt, telHref } from './text.ts'

/** Longest meta description search engines show in full, in characters. */
export const DESCRIPTION_LENGTH = 155

/** What the organisation's JSON-LD needs from site settings. */
export type OrganizationInput = {
  brandName: string
  description: string
  siteUrl: string
  contactEmail: string
  contactPhone: string
}

/** What a case study's Article JSON-LD needs. */
export type ArticleInput = {
  slug: string
  headline: string
  description: string
  imageSrc: string
  createdAt?: string | null
  updatedAt?: string | null
}

/** A question and its answer, as FAQ documents hold them. */
export type FaqInput = { question: string; answer: string }

/**
 * A meta description from page copy: whitespace collapsed, cut at
 * `DESCRIPTION_LENGTH` characters with an ellipsis.
 */
export function metaDescription(text: string): string {
  return excerpt(stegaClean(text).replace(/\s+/g, ' '), DESCRIPTION_LENGTH)
}

/** An absolute URL for a site path, on the configured `siteUrl`. */
export function absoluteUrl(path: string, siteUrl: string): string {
  return new URL(stegaClean(path), stegaClean(siteUrl)).href
}

/** The organisation's stable JSON-LD `@id`, so other objects can point at it. */
export function organizationId(siteUrl: string): string {
  return `${absoluteUrl('/', siteUrl)}#organization`
}

/**
 * The agency as a schema.org ProfessionalService with a ContactPoint from site
 * settings' e-mail and phone (the phone in E.164-like form, digits and '+').
 */
export function organizationJsonLd(input: OrganizationInput): WithContext<ProfessionalService> {
  const settings = stegaClean(input)
  const url = absoluteUrl('/', settings.siteUrl)
  return {
    '@context': 'https://schema.org',
    '@type': 'ProfessionalService',
    '@id': organizationId(settings.siteUrl),
    name: settings.brandName,
    description: settings.description,
    url,
    // A raster logo of at least 112 px, as Google asks: the 180 px app icon.
    logo: absoluteUrl('/apple-icon.png', settings.siteUrl),
    image: absoluteUrl(ogImagePath('home'), settings.siteUrl),
    email: settings.contactEmail,
    telephone: telHref(settings.contactPhone).slice('tel:'.length),
    contactPoint: {
      '@type': 'ContactPoint',
      contactType: 'customer service',
      email: settings.contactEmail,
      telephone: telHref(settings.contactPhone).slice('tel:'.length),
      availableLanguage: 'en-GB',
      areaServed: 'GB',
    },
  }
}

/** The home page's FAQ section as a schema.org FAQPage, questions in their order. */
export function faqPageJsonLd(faqs: FaqInput[], siteUrl: string): WithContext<FAQPage> {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    url: absoluteUrl('/', siteUrl),
    mainEntity: stegaClean(faqs).map((faq) => ({
      '@type': 'Question',
      name: faq.question,
      acceptedAnswer: { '@type': 'Answer', text: faq.answer },
    })),
  }
}

/**
 * A case study as a schema.org Article at its canonical (slug) address, published
 * by the agency; dates come from the document's `_createdAt` and `_updatedAt`.
 */
export function caseStudyJsonLd(
  studyInput: ArticleInput,
  settingsInput: OrganizationInput,
): WithContext<Article> {
  const study = stegaClean(studyInput)
  const settings = stegaClean(settingsInput)
  const url = absoluteUrl(`/case-studies/${study.slug}`, settings.siteUrl)
  const publisher = {
    '@type': 'ProfessionalService',
    '@id': organizationId(settings.siteUrl),
    name: settings.brandName,
  } as const
  return {
    '@context': 'https://schema.org',
    '@type': 'Article',
    '@id': `${url}#article`,
    headline: study.headline,
    description: metaDescription(study.description),
    url,
    mainEntityOfPage: url,
    image: absoluteUrl(study.imageSrc, settings.siteUrl),
    inLanguage: 'en-GB',
    ...(study.createdAt ? { datePublished: study.createdAt } : {}),
    ...(study.updatedAt ? { dateModified: study.updatedAt } : {}),
    author: publisher,
    publisher,
  }
}

/**
 * The share cards of the pages that are not case studies (app/og/[card]/route.tsx
 * draws `/og/<name>.png`): a label and which site setting gives the title.
 */
export const OG_PAGE_CARDS = {
  home: { eyebrow: null, titleField: 'heroHeadline', withHeroImage: true },
  'case-studies': { eyebrow: 'Case Studies', titleField: 'caseStudiesIntro', withHeroImage: false },
  sites: { eyebrow: 'Our Portfolio', titleField: 'portfolioIntro', withHeroImage: false },
  consultation: { eyebrow: 'Free Consultation', titleField: 'consultationIntro', withHeroImage: false },
} as const

/** Name of a case study's share card (`/og/<name>.png`). */
export function caseStudyCardName(slug: string): string {
  return `case-study-${stegaClean(slug)}`
}

/** The path of a share card image by its name. */
export function ogImagePath(card: string): string {
  return `/og/${stegaClean(card)}.png`
}

/** Pixel size of every share card (the 1.91:1 Open Graph and Twitter recommend). */
export const OG_IMAGE_SIZE = { width: 1200, height: 630 } as const

/** What every page's metadata is made from. */
export type PageMetaInput = {
  /** The page's own title; the root layout's template adds the brand. Null for the home page. */
  title: string | null
  description: string
  /** The page's canonical path, e.g. '/case-studies/how-i-saved-40-hours'. */
  path: string
  brandName: string
  /** The home page's full title (the root layout's default). */
  defaultTitle: string
  /** The page's share card, e.g. `ogImagePath('home')`. */
  image: string
  /** What the share card shows, for screen readers of the platforms that display it. */
  imageAlt: string
  type?: 'website' | 'article'
}

/**
 * A page's Next.js metadata: title, meta description, canonical URL (relative to the
 * layout's `metadataBase`, i.e. the `siteUrl` setting), Open Graph and Twitter
 * card texts and images (drawn by app/og/[card]/route.tsx).
 */
export function pageMetadata(input: PageMetaInput): Metadata {
  const page = stegaClean(input)
  const fullTitle = page.title ? `${page.title} | ${page.brandName}` : page.defaultTitle
  const description = metaDescription(page.description)
  const images = [{ url: page.image, ...OG_IMAGE_SIZE, alt: page.imageAlt, type: 'image/png' }]
  return {
    ...(page.title ? { title: page.title } : {}),
    description,
    alternates: { canonical: page.path },
    openGraph: {
      type: page.type ?? 'website',
      url: page.path,
      siteName: page.brandName,
      locale: 'en_GB',
      title: fullTitle,
      description,
      images,
    },
    twitter: { card: 'summary_large_image', title: fullTitle, description, images },
  }
}

/**
 * Metadata of a section page (/case-studies, /sites, /consultation): its heading as
 * title, its intro from site settings as description, its own share card (clean:
 * `pageMetadata` cleans all it is given, the alt text made here too).
 * @param settings brand name and headline (for the default title)
 * @param page title, intro text, canonical path and share card name (e.g. 'sites')
 */
export function sectionPageMetadata(
  settings: { brandName: string; heroHeadline: string },
  page: { title: string; intro: string; path: string; card: string },
): Metadata {
  return pageMetadata({
    title: page.title,
    description: page.intro,
    path: page.path,
    brandName: settings.brandName,
    defaultTitle: siteTitle(settings),
    image: ogImagePath(page.card),
    imageAlt: `${settings.brandName}: ${page.intro}`,
  })
}

/** The home page's title, also the default of pages without one: brand and headline. */
export function siteTitle(settings: { brandName: string; heroHeadline: string }): string {
  return stegaClean(`${settings.brandName}: ${settings.heroHeadline}`)
}
