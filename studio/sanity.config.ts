import { defineConfig, type Config } from 'sanity'
import { structureTool } from 'sanity/structure'
import { schemaTypes } from './schemaTypes/index.ts'
import { warnWhenLinked } from './linkedDocumentWarning.tsx'
import { previewTool } from './previewTool.tsx'
import { publishStatusBadge } from './publishStatus.ts'
import { structure } from './structure.ts'

/** Where a Studio reads and writes: a Sanity project and dataset, served under a base path. */
export type StudioOptions = {
  /** Sanity project id, e.g. 'abc12345' (sanity.io/manage) */
  projectId: string
  /** Dataset name; 'production' unless told otherwise */
  dataset?: string
  /** URL path the Studio lives under: '/' standalone (`npm run studio`), '/studio' inside the site */
  basePath?: string
  /**
   * The publisher that rebuilds the site, whose publish states the document badge shows
   * and whose draft preview the Preview tool opens: '' for the Studio embedded in the site
   * (its own origin), an origin for a Studio hosted elsewhere (SANITY_STUDIO_PUBLISHER_URL),
   * undefined for none (no badge; the Preview tool says how to set one).
   */
  publisherUrl?: string
}

/**
 * The Studio configuration: schema, structure (studio/structure.ts), the site
 * settings singleton rules (no "create new", no delete, duplicate or unpublish),
 * the publish-state badge (studio/publishStatus.ts), the Preview tool of drafts
 * (studio/previewTool.tsx) and a warning before unpublishing or deleting a document
 * that others link to (studio/linkedDocumentWarning.tsx).
 * One function serves both homes of the Studio: the Sanity CLI (`npm run studio`,
 * `npm run studio:build`, default export below) and the site's own /studio route
 * (app/(studio)/studio/[[...tool]]), which passes the project it was built with.
 * @returns a Sanity workspace config
 */
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
