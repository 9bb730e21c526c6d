/** `GET /api/publisher` and `/api/publish-status/:id` for the Studio (who learns what: docs/publishing.md). */
import { DocumentId, getPublishedId } from '@sanity/id-utils'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { PUBLISH_STATUS_PATH, PUBLISHER_INFO_PATH } from '../../lib/publisher-routes.ts'
import type { EditorAccess } from '../preview/editor-access.ts'
import type { DocumentPublishStates, DocumentStatus } from './document-publish-states.ts'

export type PublishStatusOptions = {
  documentStates: Pick<DocumentPublishStates, 'get'>
  /** Studios hosted elsewhere, e.g. `https://agency.sanity.studio`: they get CORS. */
  studioOrigins: readonly string[]
  /** SANITY_PREVIEW_SECRET is set. */
  preview: boolean
  access: EditorAccess
}

/** Up to 128 letters, digits, `_`, `-` and `.`, not starting with `-` or `.`, no `..` (Sanity's rule). */
const DOCUMENT_ID = /^(?!.*\.\.)[A-Za-z0-9_][\w.-]{0,127}$/

/** The published id, or null for anything that is not a Sanity document id (`drafts.`, `versions.x`). */
export function publishedIdOf(raw: string): string | null {
  if (!DOCUMENT_ID.test(raw)) return null
  try {
    return getPublishedId(DocumentId(raw))
  } catch {
    return null
  }
}

/** As content errors and the publish gate name a document. */
const NAMED_DOCUMENT = /document "([^"]+)"/g

/**
 * What one document's editor may read of a failed build's reason (one problem a line).
 * @returns the lines naming this document (or its versions), else which other document failed, else the log
 */
export function reasonFor(documentId: string, reason: string): string {
  const lines = reason.split('\n').map((line) => line.trim())
  const named = (line: string) =>
    [...line.matchAll(NAMED_DOCUMENT)].map((match) => publishedIdOf(match[1] ?? '')).filter(Boolean)
  const own = lines.filter((line) => named(line).includes(documentId))
  if (own.length) return own.join('\n')
  const other = lines.flatMap(named)[0]
  if (other) return `the build failed for another document: ${other}`
  return "the build failed on no document's content; the whole reason is in the publisher's log"
}

/** A failure's `reason` for editors only. */
function stateFor(documentId: string, status: DocumentStatus | null, editor: boolean) {
  if (!status) return { state: 'unknown' as const }
  if (status.state !== 'failed') return status
  const { reason, ...shown } = status
  return editor ? { ...shown, reason: reasonFor(documentId, reason) } : shown
}

/** An id that is not a Sanity document id answers 400. */
export async function publishStatusRoutes(
  app: FastifyInstance,
  options: PublishStatusOptions,
): Promise<void> {
  const cors = (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('Cache-Control', 'no-store').header('Vary', 'Origin, Authorization, Cookie')
    const origin = request.headers.origin
    if (typeof origin === 'string' && options.studioOrigins.includes(origin))
      reply
        .header('Access-Control-Allow-Origin', origin)
        .header('Access-Control-Allow-Headers', 'Authorization')
        .header('Access-Control-Allow-Methods', 'GET')
        .header('Access-Control-Max-Age', '600')
  }
  app.get(PUBLISHER_INFO_PATH, async (request, reply) => {
    cors(request, reply)
    return reply.send({ preview: options.preview })
  })
  // The preflight of a Studio's request that sends Authorization.
  app.options(`${PUBLISH_STATUS_PATH}/:documentId`, async (request, reply) => {
    cors(request, reply)
    return reply.code(204).send()
  })
  app.get<{ Params: { documentId: string } }>(
    `${PUBLISH_STATUS_PATH}/:documentId`,
    async (request, reply) => {
      cors(request, reply)
      const id = publishedIdOf(request.params.documentId)
      if (!id) return reply.code(400).send({ error: 'not a document id' })
      const access = await options.access.check(request, reply)
      if (access === 'answered') return reply
      return reply.send(stateFor(id, options.documentStates.get(id), access === 'editor'))
    },
  )
}
