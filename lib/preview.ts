/**
 * The addresses and headers of editors' draft preview, shared by the publisher (which
 * answers them) and the preview build (whose pages link to them). Visitors' builds
 * carry none of it.
 */

/** `GET /preview/enable?secret=…&redirect=/path`: sets the preview cookie and goes to the path. */
export const PREVIEW_ENABLE_PATH = '/preview/enable'

/** `GET /preview/disable`: clears the preview cookie and goes back to the live site. */
export const PREVIEW_DISABLE_PATH = '/preview/disable'

/**
 * `POST /preview/perspective` with `{ "perspective": "rSpring,drafts" }`: Presentation's
 * perspective switcher, through the preview's visual editing; sets the perspective cookie
 * the preview server reads (`sanity-preview-perspective`).
 */
export const PREVIEW_PERSPECTIVE_PATH = '/preview/perspective'

/**
 * Where a preview page's contact form posts: the publisher answers it as received and
 * keeps nothing, so trying the form on a preview never reaches the real inbox.
 */
export const PREVIEW_CONTACT_PATH = '/preview/contact'

/** Headers of every preview answer: never indexed, never cached or shared. */
export const PREVIEW_HEADERS: Readonly<Record<string, string>> = {
  'X-Robots-Tag': 'noindex',
  'Cache-Control': 'private, no-store',
}
