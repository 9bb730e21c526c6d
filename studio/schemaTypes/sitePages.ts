/** The site's pages, written once for the navigation, the sitemap, Presentation and the link rule; plain, so the build imports it without the Studio. */

/**
 * A page: its path; its `title` in Presentation; `nav`, its label in the navigation bar
 * (spec §2), in table order; `datedBy`, the key of `getContentDates`'s result that dates its
 * sitemap `<lastmod>` besides site settings, which are on every page.
 */
type SitePage = { href: string; title: string; nav?: string; datedBy: string }

export const SITE_PAGES = {
  home: { href: '/', title: 'Home page', datedBy: 'home' },
  caseStudies: { href: '/case-studies', title: 'Case Studies', nav: 'Case Studies', datedBy: 'caseStudies' },
  sites: { href: '/sites', title: 'Sites', nav: 'Sites', datedBy: 'portfolio' },
  consultation: {
    href: '/consultation',
    title: 'Free Consultation',
    nav: 'Free Consultation',
    datedBy: 'settings',
  },
} as const satisfies Record<string, SitePage>

/** A case study's page by slug or legacy id, e.g. `/case-studies/um-al-hayaa`. */
export const caseStudyHref = (slug: string) => `${SITE_PAGES.caseStudies.href}/${slug}`
