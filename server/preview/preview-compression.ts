/**
 * The preview process compresses its own answers (the library's brotli 4, else gzip), so the publisher's
 * event loop streams a sixth to a tenth of a page's 130-750 KB; Next's own is off (next.config.mjs).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import compression from 'compression'

export type Handler = (req: IncomingMessage, res: ServerResponse) => void

/** Its types name Express's; it is plain Node middleware. */
const compress = compression({ threshold: 1024 }) as unknown as (
  req: IncomingMessage,
  res: ServerResponse,
  next: () => void,
) => void

/** `handle` with answers compressed by the request's `Accept-Encoding`, streamed as Next flushes. */
export function compressed(handle: Handler): Handler {
  return (req, res) => compress(req, res, () => handle(req, res))
}
