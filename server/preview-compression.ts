/**
 * The preview process's answers compressed where they are made (server/preview-child.ts):
 * every byte of a preview page passes through the publisher's event loop, the one that
 * serves visitors, on its way to the editor, and a preview page is heavy (click-to-edit
 * marks in every text: 130 to 750 KB of HTML for the seed's pages). Compressed here, on
 * this process's idle-priority CPU, the publisher streams a sixth to a tenth of that, and
 * passes `Content-Encoding` on untouched (server/preview-process.ts).
 * - Brotli at quality 4 when the editor's browser takes it (every current one does), else
 *   gzip at zlib's default level: both fast enough for a page per request (a few ms for
 *   the seed's heaviest page, as fast as gzip's default level and a fifth smaller).
 * - Streamed as it renders: Next flushes each part of a page it streams (`res.flush`),
 *   and each part is sent compressed at once.
 * Next's own compression (gzip only) is off in the preview server (next.config.mjs).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import compression from 'compression'

/** A Node request handler. */
export type Handler = (req: IncomingMessage, res: ServerResponse) => void

/** expressjs/compression as the plain Node middleware it is (its types name Express's). */
const compress = compression({ threshold: 1024 }) as unknown as (
  req: IncomingMessage,
  res: ServerResponse,
  next: () => void,
) => void

/**
 * A handler whose answers are compressed by the request's `Accept-Encoding` (see the
 * module comment).
 * @param handle what answers the request
 */
export function compressed(handle: Handler): Handler {
  return (req, res) => compress(req, res, () => handle(req, res))
}
