/** The site's pages as paths, in a plain module the schema (and so the build) can import without the Studio. */
import type { DocumentLocation } from 'sanity/presentation'

export const SITE_PAGES = {
  home: { title: 'Home page', href: '/' },
  caseStudies: { title: 'Case Studies', href: '/case-studies' },
  sites: { title: 'Sites', href: '/sites' },
  consultation: { title: 'Free Consultation', href: '/consultation' },
} as const satisfies Record<string, DocumentLocation>

/** A case study's page by slug or legacy id, e.g. `/case-studies/um-al-hayaa`. */
export const caseStudyHref = (slug: string) => `/case-studies/${slug}`
