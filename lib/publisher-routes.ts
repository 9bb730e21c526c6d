/**
 * The publisher's addresses (server/, `npm start`), one constant each: the publisher
 * registers its routes with them, and whatever calls it builds its requests with them
 * (the preview's banner and visual editing, the operator's scripts, the benchmarks and
 * audits). The three the Studio calls are written in studio/publisherApi.ts, because the
 * Studio is a separate program that imports nothing of the site, and exported again
 * here: every address is written once.
 */
export { PREVIEW_ENABLE_PATH, PUBLISH_STATUS_PATH, PUBLISHER_INFO_PATH } from '../studio/publisherApi.ts'

/** `GET /healthz`: what is live and what the publisher is doing (server/health.ts). */
export const HEALTH_PATH = '/healthz'

/** `POST /webhooks/sanity`: Sanity's signed webhook, sent when a document is published (server/webhook.ts). */
export const WEBHOOK_PATH = '/webhooks/sanity'

/** `POST /api/contact`: the contact inbox of the embedded default (server/inbox.ts). */
export const CONTACT_INBOX_PATH = '/api/contact'

/** `GET /preview/disable`: ends the editor's preview session and goes back to the live site. */
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
