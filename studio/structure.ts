import type { StructureResolver } from 'sanity/structure'
import { ORDER_ASC } from './schemaTypes/orderField.ts'
import { SITE_SETTINGS_ID } from './schemaTypes/siteSettings.ts'

/**
 * The Studio's content lists below site settings, roughly in the order the site shows them,
 * each titled in the plural. Every document type except `siteSettings` belongs
 * here (tests/unit/studio-structure.test.ts checks it against the schema).
 */
export const CONTENT_LISTS = [
  { type: 'service', title: 'Services' },
  { type: 'audienceCard', title: 'Audience cards' },
  { type: 'growthItem', title: 'Growth items' },
  { type: 'caseStudy', title: 'Case studies' },
  { type: 'review', title: 'Reviews' },
  { type: 'faq', title: 'FAQs' },
  { type: 'portfolioSite', title: 'Portfolio sites' },
] as const

/**
 * The Structure tool's root pane: the site settings singleton on top (one fixed
 * document, opened directly), a divider, then one list per document type, sorted
 * by the `order` field as the site sorts it (studio/schemaTypes/orderField.ts).
 * Staff can still pick another sort from the list's menu; 'Order on the site'
 * is offered there by each type's `orderings`.
 * @param S Sanity's StructureBuilder
 * @returns the root list
 */
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
