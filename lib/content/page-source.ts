/**
 * The content source of the page being rendered, for `app/` routes: the one place where a
 * render learns whether it is a visitor's page or an editor's preview.
 * - The static export renders outside draft mode: the environment's source
 *   (`sourceFromEnv`), published documents.
 * - The preview server's build prerenders no page (`connection()`): that server renders
 *   only in draft mode, so a prerendered page would never be served, and its build needs
 *   no content.
 * - The preview server renders an editor's request in Next's draft mode (the publisher
 *   turns it on only for a request that carries an open preview session): the same
 *   source through the perspective Presentation's switcher chose (its
 *   `sanity-preview-perspective` cookie: a content release over drafts, or `published`),
 *   drafts when there is none; its strings stega-encoded for the click-to-edit overlays
 *   (Presentation's, and "Open in Studio" outside it), from the Content Lake's source map or
 *   one computed for the local dataset (lib/content/source-map.ts).
 * Only this module reads the request (`next/headers`); the rest of lib/content takes a
 * `ContentSource` and runs anywhere (jest, scripts, the build).
 */
import { cookies, draftMode } from 'next/headers'
import { connection } from 'next/server'
import { perspectiveCookieName } from '@sanity/preview-url-secret/constants'
import { buildingPreviewServer } from '../next-target.ts'
import { studioUrlFromEnv } from '../studio.ts'
import type { ReadScope } from './reads.ts'
import { sourceFromEnv, toPerspective, type ContentSource } from './source.ts'

/**
 * @returns the environment's source outside draft mode; in draft mode the same source,
 *   marked `preview`, through the request's perspective (default `drafts`; an invalid cookie also gives
 *   `drafts`), with stega on (`studioUrl`: SANITY_STUDIO_URL, or the embedded Studio's path)
 * @param reads whose reads the render's queries are, for the build's dependency map
 *   (lib/content/reads.ts): a dynamic route's page, or `always` for a page every build
 *   renders; none for what every page shares (the layout)
 * While the preview server is built, it first waits for a request (`connection()`): Next
 * then leaves the page to render on request instead of prerendering it.
 */
export async function pageSource(reads?: ReadScope): Promise<ContentSource> {
  if (buildingPreviewServer()) await connection()
  const source: ContentSource = reads ? { ...sourceFromEnv(), reads } : sourceFromEnv()
  if (!(await draftMode()).isEnabled) return source
  // Presentation's switcher writes it (the publisher's /preview/perspective), e.g.
  // `rSpring,drafts`; it is checked here again like any value from outside.
  const chosen = (await cookies()).get(perspectiveCookieName)?.value
  const perspective = (chosen && toPerspective(chosen)) || 'drafts'
  return { ...source, perspective, preview: true, stega: { studioUrl: studioUrlFromEnv() } }
}
