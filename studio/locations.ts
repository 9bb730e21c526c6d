/** Where each document type shows on the site, for Presentation's `resolve.locations` (a test checks them against `app/`). */
import { defineLocations, type DocumentLocation, type DocumentLocationResolvers } from 'sanity/presentation'
import { caseStudyHref, SITE_PAGES } from './schemaTypes/sitePages.ts'

/** Each page of `SITE_PAGES` as Presentation lists it. */
const PAGE_LOCATIONS = Object.fromEntries(
  Object.entries(SITE_PAGES).map(([key, { title, href }]) => [key, { title, href }]),
) as Record<keyof typeof SITE_PAGES, DocumentLocation>

const onHomePage = defineLocations({ locations: [PAGE_LOCATIONS.home] })

export const locations: DocumentLocationResolvers = {
  siteSettings: defineLocations({
    locations: Object.values(PAGE_LOCATIONS),
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
      locations: [PAGE_LOCATIONS.home],
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
        PAGE_LOCATIONS.caseStudies,
        PAGE_LOCATIONS.home,
      ],
    }),
  }),
  portfolioSite: defineLocations({ locations: [PAGE_LOCATIONS.sites] }),
}
