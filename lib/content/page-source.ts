/** The content source of the page being rendered, for `app/` routes: the one place that reads the request. */
import { cookies, draftMode } from 'next/headers'
import { connection } from 'next/server'
import { perspectiveCookieName } from '@sanity/preview-url-secret/constants'
import { buildingPreviewServer } from '../next-target.ts'
import { studioUrlFromEnv } from '../studio.ts'
import type { ReadScope } from './reads.ts'
import { sourceFromEnv, toPerspective, type ContentSource } from './source.ts'

/**
 * The environment's source outside draft mode; in draft mode (an editor's preview) the same
 * source, marked `preview`, through the perspective cookie Presentation's switcher set (default
 * `drafts`), with stega on. While the preview server is built it waits for a request
 * (`connection()`), so Next prerenders nothing.
 * @param reads whose reads the render's queries are (lib/content/reads.ts); none for the layout
 */
export async function pageSource(reads?: ReadScope): Promise<ContentSource> {
  if (buildingPreviewServer()) await connection()
  const source: ContentSource = reads ? { ...sourceFromEnv(), reads } : sourceFromEnv()
  if (!(await draftMode()).isEnabled) return source
  // Checked again like any value from outside, e.g. `rSpring,drafts`.
  const chosen = (await cookies()).get(perspectiveCookieName)?.value
  const perspective = (chosen && toPerspective(chosen)) || 'drafts'
  return { ...source, perspective, preview: true, stega: { studioUrl: studioUrlFromEnv() } }
}
