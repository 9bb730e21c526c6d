/** The site's pages, from the one table in studio/schemaTypes/sitePages.ts; apart from lib/navigation.ts so no client code bundles the table. */
import { caseStudyHref, SITE_PAGES } from '../studio/schemaTypes/sitePages.ts'
import type { NavItem } from './navigation.ts'

export { caseStudyHref, SITE_PAGES }

/** The pages of `SITE_PAGES` with a nav label: separate buttons on desktop, in the Menu on mobile. */
export const routeItems: NavItem[] = Object.values(SITE_PAGES).flatMap((page) =>
  'nav' in page ? [{ label: page.nav, href: page.href }] : [],
)
