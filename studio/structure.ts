import type { StructureResolver } from 'sanity/structure'
import { ORDER_ASC } from './schemaTypes/orderField.ts'
import { SITE_SETTINGS_ID } from './schemaTypes/siteSettings.ts'

/** The content lists below site settings, in the site's order; every type but `siteSettings` (a test checks). */
export const CONTENT_LISTS = [
  { type: 'service', title: 'Services' },
  { type: 'audienceCard', title: 'Audience cards' },
  { type: 'growthItem', title: 'Growth items' },
  { type: 'caseStudy', title: 'Case studies' },
  { type: 'review', title: 'Reviews' },
  { type: 'faq', title: 'FAQs' },
  { type: 'portfolioSite', title: 'Portfolio sites' },
] as const

/** The root pane: the site settings singleton, a divider, then each list sorted as the site sorts it. */
export const structure: StructureResolver = (S) =>
  S.list()
    .title('Content')
    .items([
      S.listItem()
        .title('Site settings')
        .id(SITE_SETTINGS_ID)
        .schemaType('siteSettings')
        .child(S.document().schemaType('siteSettings').documentId(SITE_SETTINGS_ID).title('Site settings')),
      S.divider(),
      ...CONTENT_LISTS.map(({ type, title }) =>
        S.documentTypeListItem(type)
          .title(title)
          .child(S.documentTypeList(type).title(title).defaultOrdering(ORDER_ASC)),
      ),
    ])
