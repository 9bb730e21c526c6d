/**
 * The addresses the Studio calls on the publisher (the site's `npm start` server).
 * The Studio is a separate program that imports nothing of the site, so they are written
 * here; the site's lib/publisher-routes.ts exports them again, and the publisher registers
 * its routes with them.
 */

/** `GET <publisher>/api/publish-status/<document id>`: the document's last publish. */
export const PUBLISH_STATUS_PATH = '/api/publish-status'

/** `GET <publisher>/api/publisher`: `{ preview: boolean }`, what it offers the Studio. */
export const PUBLISHER_INFO_PATH = '/api/publisher'

/**
 * `GET <publisher>/preview/enable`: opens an editor's preview session and goes to a page.
 * Presentation's preview mode sends the secret it generated
 * (`?sanity-preview-secret=…&sanity-preview-pathname=…`); a link of the operator's sends
 * SANITY_PREVIEW_SECRET (`?secret=…&redirect=/path`).
 */
export const PREVIEW_ENABLE_PATH = '/preview/enable'

/**
 * A publisher address as configured, without trailing slashes.
 * @param publisherUrl an origin such as `https://www.example.co.uk`, or '' for this Studio's own origin
 */
export const publisherBase = (publisherUrl: string) => publisherUrl.replace(/\/+$/, '')
