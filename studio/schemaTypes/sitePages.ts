/**
 * The site's pages as paths, in one place: the Preview tool's locations (studio/locations.ts,
 * which re-exports these and whose test checks each against the site's `app/` routes), the
 * warning before unpublishing a linked case study (studio/linkedDocumentWarning.tsx) and the
 * rule that a link in text leads to a page (`textLinkHasPage` in urls.ts). A plain module:
 * the schema, and so the build's validation, imports it without loading the Studio.
 */
import type { DocumentLocation } from 'sanity/presentation'

/** The site's pages that are not a document of their own. */
export const SITE_PAGES = {
  home: { title: 'Home page', href: '/' },
  caseStudies: { title: 'Case Studies', href: '/case-studies' },
  sites: { title: 'Sites', href: '/sites' },
  consultation: { title: 'Free Consultation', href: '/consultation' },
} as const satisfies Record<string, DocumentLocation>

/**
 * A case study's own page (the site's `case-studies/[slug]` route segment).
 * @param slug its slug or legacy id, as it goes in the address (percent-encode it for a link)
 * @returns the path, e.g. `/case-studies/um-al-hayaa`
 */
export const caseStudyHref = (slug: string) => `/case-studies/${slug}`
