/** The publisher's addresses, written once: the Studio's three live in studio/publisherApi.ts (it imports nothing of the site). */
export { PREVIEW_ENABLE_PATH, PUBLISH_STATUS_PATH, PUBLISHER_INFO_PATH } from '../studio/publisherApi.ts'

/** `GET /healthz`: what is live and what the publisher is doing. */
export const HEALTH_PATH = '/healthz'

/** `POST /webhooks/sanity`: Sanity's signed webhook, sent when a document is published. */
export const WEBHOOK_PATH = '/webhooks/sanity'

/** `POST /api/contact`: the contact inbox of the embedded default. */
export const CONTACT_INBOX_PATH = '/api/contact'

/** `GET /preview/disable`: ends the editor's preview session. */
export const PREVIEW_DISABLE_PATH = '/preview/disable'

/** `POST /preview/perspective` (`{ "perspective": "rSpring,drafts" }`): Presentation's switcher sets the perspective cookie. */
export const PREVIEW_PERSPECTIVE_PATH = '/preview/perspective'

/** Where a preview page's contact form posts: answered as received, nothing kept. */
export const PREVIEW_CONTACT_PATH = '/preview/contact'
