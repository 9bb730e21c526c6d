/** Where each document type shows on the site, for Presentation's `resolve.locations` (a test checks them against `app/`). */
import { defineLocations, type DocumentLocationResolvers } from 'sanity/presentation'
import { caseStudyHref, SITE_PAGES } from './schemaTypes/sitePages.ts'

export { caseStudyHref, SITE_PAGES }

const onHomePage = defineLocations({ locations: [SITE_PAGES.home] })

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
