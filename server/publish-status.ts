/**
 * What the publisher tells the Studio:
 * - `GET /api/publisher`: `{ preview: boolean }`, whether it serves draft previews
 *   (the Studio's Preview tool asks before it opens one);
 * - `GET /api/publish-status/:documentId`: the state of one document's last publish,
 * for the Studio's badge: `{ state: 'building', since }`, `{ state: 'live', since,
 * buildId }`, `{ state: 'failed', at, reason }`, or `{ state: 'unknown' }` when this
 * publisher has not published it since it started.
 * Both answer the site's own pages (`Sec-Fetch-Site: same-origin`, the Studio embedded
 * at /studio) and the configured Studio origins (`STUDIO_ORIGINS`, with CORS), and
 * refuse everyone else (403). A status reveals that one document's state and nothing else.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Publisher } from './publisher.ts'

export type PublishStatusOptions = {
  publisher: Pick<Publisher, 'documentStatus'>
  /** Origins of Studios hosted elsewhere, e.g. `https://agency.sanity.studio`. */
  studioOrigins: readonly string[]
  /** Whether this publisher serves editors' draft previews (SANITY_PREVIEW_SECRET). */
  preview: boolean
}

/** A document id as Sanity writes them: letters, digits, `_`, `-` and `.` (drafts.x). */
const DOCUMENT_ID = /^[\w.-]{1,128}$/

/**
 * Whether a request may read publish states.
 * @returns the origin to allow with CORS (null for a same-origin request), or false
 */
export function allowedOrigin(
  request: FastifyRequest,
  studioOrigins: readonly string[],
): string | null | false {
  const origin = request.headers.origin
  if (typeof origin === 'string' && studioOrigins.includes(origin)) return origin
  if (request.headers['sec-fetch-site'] === 'same-origin') return null
  return false
}

/** Registers the route (see the module comment). */
export async function publishStatusRoutes(
  app: FastifyInstance,
  options: PublishStatusOptions,
): Promise<void> {
  const cors = (reply: FastifyReply, origin: string | null) => {
    reply.header('Cache-Control', 'no-store').header('Vary', 'Origin, Sec-Fetch-Site')
    if (origin) reply.header('Access-Control-Allow-Origin', origin)
  }
  /** Sets the answer's CORS headers, or answers 403: @returns whether the request may go on */
  const admit = (request: FastifyRequest, reply: FastifyReply): boolean => {
    const origin = allowedOrigin(request, options.studioOrigins)
    if (origin === false) {
      void reply.code(403).header('Cache-Control', 'no-store').send({ error: 'origin not allowed' })
      return false
    }
    cors(reply, origin)
    return true
  }
  app.get('/api/publisher', async (request, reply) => {
    if (!admit(request, reply)) return reply
    return reply.send({ preview: options.preview })
  })
  app.get<{ Params: { documentId: string } }>('/api/publish-status/:documentId', async (request, reply) => {
    if (!admit(request, reply)) return reply
    const { documentId } = request.params
    if (!DOCUMENT_ID.test(documentId)) return reply.code(400).send({ error: 'not a document id' })
    return reply.send(options.publisher.documentStatus(documentId) ?? { state: 'unknown' })
  })
}
