import { defineConfig, type Config } from 'sanity'
import { structureTool } from 'sanity/structure'
import { schemaTypes } from './schemaTypes/index.ts'
import { warnWhenLinked } from './linkedDocumentWarning.tsx'
import { previewTool } from './previewTool.tsx'
import { publishStatusBadge } from './publishStatus.ts'
import { structure } from './structure.ts'

/** A Studio's project and dataset, base path ('/studio' inside the site) and publisher ('' its own origin, undefined none). */
export type StudioOptions = {
  projectId: string
  dataset?: string
  basePath?: string
  publisherUrl?: string
}

/** The Studio configuration, for both the Sanity CLI (default export) and the site's /studio route. */
export function createStudioConfig({
  projectId,
  dataset = 'production',
  basePath = '/',
  publisherUrl,
}: StudioOptions): Config {
  const badge = publisherUrl === undefined ? null : publishStatusBadge(publisherUrl)
  return defineConfig({
    name: 'default',
    title: 'Agency site',
    projectId,
    dataset,
    basePath,
    plugins: [structureTool({ structure }), previewTool(publisherUrl)],
    schema: {
      types: schemaTypes,
      templates: (templates) => templates.filter(({ schemaType }) => schemaType !== 'siteSettings'),
    },
    document: {
      badges: (badges) => (badge ? [...badges, badge] : badges),
      actions: (actions, { schemaType }) =>
        schemaType === 'siteSettings'
          ? actions.filter(({ action }) => action && !['duplicate', 'delete', 'unpublish'].includes(action))
          : actions.map(warnWhenLinked),
    },
  })
}

/** The CLI's Studio: SANITY_STUDIO_* variables are read by `sanity dev` and `sanity build`. */
export default createStudioConfig({
  projectId: process.env.SANITY_STUDIO_PROJECT_ID || 'local0',
  dataset: process.env.SANITY_STUDIO_DATASET || 'production',
  publisherUrl: process.env.SANITY_STUDIO_PUBLISHER_URL || undefined,
})
