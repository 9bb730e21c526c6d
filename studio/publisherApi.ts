/**
 * The addresses the Studio calls on the publisher (the site's `npm start` server).
 * The Studio is a separate program that imports nothing of the site, so the contract
 * is written here; a test asks the publisher each of them and checks the answers.
 */

/** `GET <publisher>/api/publish-status/<document id>`: the document's last publish. */
export const PUBLISH_STATUS_PATH = '/api/publish-status'

/** `GET <publisher>/api/publisher`: `{ preview: boolean }`, what it offers the Studio. */
export const PUBLISHER_INFO_PATH = '/api/publisher'

/**
 * Presentation's preview mode: the publisher's route that checks the secret Presentation
 * generated and sets the preview cookie (`?sanity-preview-secret=…&sanity-preview-pathname=…`).
 */
export const PREVIEW_ENABLE_PATH = '/preview/enable'

/**
 * A publisher address as configured, without trailing slashes.
 * @param publisherUrl an origin such as `https://www.example.co.uk`, or '' for this Studio's own origin
 */
export const publisherBase = (publisherUrl: string) => publisherUrl.replace(/\/+$/, '')
