/**
 * Where each document shows on the site, for the Presentation tool's `resolve.locations`:
 * the document editor lists these pages ("Used on 3 pages") and opens them in the
 * preview beside the form. The paths are the site's routes (the site's `app/` route
 * segments); a test checks each against them, and that every document type has an entry.
 */
import { defineLocations, type DocumentLocationResolvers } from 'sanity/presentation'
import { caseStudyHref, SITE_PAGES } from './schemaTypes/sitePages.ts'

// The pages' paths live in a plain module, which the schema's link rule also imports.
export { caseStudyHref, SITE_PAGES }

/** A section of the home page: the document shows there and nowhere else. */
const onHomePage = defineLocations({ locations: [SITE_PAGES.home] })

/**
 * One entry per document schema type. Site settings (the header, footer, contact
 * details and each page's intro) show on every page; a case study on its own page,
 * the list and the home page's teaser; the home page's sections on the home page.
 */
export const locations: DocumentLocationResolvers = {
  siteSettings: defineLocations({
    locations: Object.values(SITE_PAGES),
    message: 'Site settings show on every page: the header, the footer and each page’s intro.',
    tone: 'positive',
  }),
  service: onHomePage,
  audienceCard: onHomePage,
  growthItem: onHomePage,
  faq: onHomePage,
  review: defineLocations({
    select: { placement: 'placement' },
    resolve: (review) => ({
      locations: [SITE_PAGES.home],
      ...(review?.placement
        ? {}
        : { message: 'Choose where it shows before it appears on the home page.', tone: 'caution' as const }),
    }),
  }),
  caseStudy: defineLocations({
    select: { title: 'title', slug: 'slug.current' },
    resolve: (study) => ({
      locations: [
        ...(study?.slug
          ? [{ title: study.title || 'This case study', href: caseStudyHref(study.slug) }]
          : []),
        SITE_PAGES.caseStudies,
        SITE_PAGES.home,
      ],
    }),
  }),
  portfolioSite: defineLocations({ locations: [SITE_PAGES.sites] }),
}
