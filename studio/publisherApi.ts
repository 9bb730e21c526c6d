/** The publisher's addresses the Studio calls; the Studio imports nothing of the site, which re-exports these. */

/** `GET …/<document id>`: the document's last publish. */
export const PUBLISH_STATUS_PATH = '/api/publish-status'

/** `GET`: `{ preview: boolean }`. */
export const PUBLISHER_INFO_PATH = '/api/publisher'

/** `GET`: opens an editor's preview session and goes to a page. */
export const PREVIEW_ENABLE_PATH = '/preview/enable'

/** A configured publisher origin without trailing slashes ('' stays: this Studio's own origin). */
export const publisherBase = (publisherUrl: string) => publisherUrl.replace(/\/+$/, '')
