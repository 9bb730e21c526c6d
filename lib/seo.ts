/**
 * Search and sharing metadata and schema.org JSON-LD as pure functions of content; everything
 * returned is cleaned of stega (metadata is never an edit overlay, and an encoded URL is wrong).
 */
import { stegaClean } from '@sanity/client/stega'
import type { Metadata } from 'next'
import type { Article, FAQPage, ProfessionalService, WithContext } from 'schema-dts'
import { excerpt, telHref } from './text.ts'

/** Longest meta description search engines show in full, in characters. */
export const DESCRIPTION_LENGTH = 155

export type OrganizationInput = {
  brandName: string
  description: string
  siteUrl: string
  contactEmail: string
  contactPhone: string
}

export type ArticleInput = {
  slug: string
  headline: string
  description: string
  imageSrc: string
  createdAt?: string | null
  updatedAt?: string | null
}

export type FaqInput = { question: string; answer: string }

/** A meta description from page copy: whitespace collapsed, cut at `DESCRIPTION_LENGTH` with an ellipsis. */
export function metaDescription(text: string): string {
  return excerpt(stegaClean(text).replace(/\s+/g, ' '), DESCRIPTION_LENGTH)
}

export function absoluteUrl(path: string, siteUrl: string): string {
  return new URL(stegaClean(path), stegaClean(siteUrl)).href
}

/** The organisation's stable JSON-LD `@id`, so other objects can point at it. */
export function organizationId(siteUrl: string): string {
  return `${absoluteUrl('/', siteUrl)}#organization`
}

/** The agency as a schema.org ProfessionalService with a ContactPoint (the phone as digits and '+'). */
export function organizationJsonLd(input: OrganizationInput): WithContext<ProfessionalService> {
  const settings = stegaClean(input)
  return {
    '@context': 'https://schema.org',
    '@type': 'ProfessionalService',
    '@id': organizationId(settings.siteUrl),
    name: settings.brandName,
    description: settings.description,
    url: absoluteUrl('/', settings.siteUrl),
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

/** A case study as a schema.org Article at its slug address, published by the agency. */
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

/** The share cards of the pages that are not case studies (`/og/<name>.png`): a label and the setting giving the title. */
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

export function ogImagePath(card: string): string {
  return `/og/${stegaClean(card)}.png`
}

/** Pixel size of every share card (the 1.91:1 Open Graph and Twitter recommend). */
export const OG_IMAGE_SIZE = { width: 1200, height: 630 } as const

export type PageMetaInput = {
  /** The page's own title (the layout's template adds the brand); null for the home page. */
  title: string | null
  description: string
  path: string
  brandName: string
  defaultTitle: string
  image: string
  imageAlt: string
  type?: 'website' | 'article'
}

/** A page's Next.js metadata: title, description, canonical path (on `metadataBase`), Open Graph and Twitter cards. */
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

/** Metadata of a section page (/case-studies, /sites, /consultation): its heading, intro and own share card. */
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
