/** Where each document type shows on the site, for Presentation's `resolve.locations` (a test checks them against `app/`). */
import { defineLocations, type DocumentLocation, type DocumentLocationResolvers } from 'sanity/presentation'
import { caseStudyHref, SITE_PAGES } from './schemaTypes/sitePages.ts'

/** A page of `SITE_PAGES` as Presentation lists it. */
const at = ({ title, href }: DocumentLocation): DocumentLocation => ({ title, href })

const onHomePage = defineLocations({ locations: [at(SITE_PAGES.home)] })

export const locations: DocumentLocationResolvers = {
  siteSettings: defineLocations({
    locations: Object.values(SITE_PAGES).map(at),
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
      locations: [at(SITE_PAGES.home)],
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
        at(SITE_PAGES.caseStudies),
        at(SITE_PAGES.home),
      ],
    }),
  }),
  portfolioSite: defineLocations({ locations: [at(SITE_PAGES.sites)] }),
}
