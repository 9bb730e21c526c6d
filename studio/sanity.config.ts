import { defineConfig } from 'sanity'
import { structureTool, type StructureResolver } from 'sanity/structure'
import { schemaTypes } from './schemaTypes'
import { SITE_SETTINGS_ID } from './schemaTypes/siteSettings'

const projectId = process.env.SANITY_STUDIO_PROJECT_ID || 'local0'
const dataset = process.env.SANITY_STUDIO_DATASET || 'production'

/** Site settings is a singleton: one fixed document, no "create new". */
const structure: StructureResolver = (S) =>
  S.list()
    .title('Content')
    .items([
      S.listItem()
        .title('Site settings')
        .id(SITE_SETTINGS_ID)
        .child(S.document().schemaType('siteSettings').documentId(SITE_SETTINGS_ID)),
      S.divider(),
      ...S.documentTypeListItems().filter((item) => item.getId() !== 'siteSettings'),
    ])

export default defineConfig({
  name: 'default',
  title: 'Agency site',
  projectId,
  dataset,
  plugins: [structureTool({ structure })],
  schema: {
    types: schemaTypes,
    templates: (templates) => templates.filter(({ schemaType }) => schemaType !== 'siteSettings'),
  },
  document: {
    actions: (actions, { schemaType }) =>
      schemaType === 'siteSettings'
        ? actions.filter(({ action }) => action && !['duplicate', 'delete', 'unpublish'].includes(action))
        : actions,
  },
})
