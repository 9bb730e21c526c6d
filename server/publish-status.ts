/**
 * What the publisher tells the Studio:
 * - `GET /api/publisher`: `{ preview: boolean }`, whether it serves draft previews
 *   (the Studio's Preview tool asks before it opens one);
 * - `GET /api/publish-status/:documentId`: the state of one document's last publish,
 *   for the Studio's badge: `{ state: 'building', since }`, `{ state: 'live', since,
 *   buildId }`, `{ state: 'failed', at }`, or `{ state: 'unknown' }` when this publisher
 *   has not published it since it started. To an editor (editor-access.ts) a failure also
 *   gives `reason`: only the lines of the build's error that name this document, or "the
 *   build failed for another document: <id>", never the build's output or file paths.
 *   The whole error stays in the publisher's log and in `/healthz` for editors.
 * Anyone may ask (a state says no more than the live site shows); Studios at
 * `STUDIO_ORIGINS` get CORS, with the Authorization header their proof travels in.
 * An id that is not a Sanity document id answers 400.
 */
import { DocumentId, getPublishedId } from '@sanity/id-utils'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { PUBLISH_STATUS_PATH, PUBLISHER_INFO_PATH } from '../lib/publisher-routes.ts'
import type { EditorAccess } from './editor-access.ts'
import type { DocumentPublishStates, DocumentStatus } from './document-publish-states.ts'

export type PublishStatusOptions = {
  /** Each document's last publish (the publisher's `documentStates`). */
  documentStates: Pick<DocumentPublishStates, 'get'>
  /** Origins of Studios hosted elsewhere, e.g. `https://agency.sanity.studio`. */
  studioOrigins: readonly string[]
  /** Whether this publisher serves editors' draft previews (SANITY_PREVIEW_SECRET). */
  preview: boolean
  access: EditorAccess
}

/**
 * A document id as Sanity allows them: up to 128 letters, digits, `_`, `-` and `.`,
 * not starting with `-` or `.`, no empty path segment (`a..b`).
 */
const DOCUMENT_ID = /^(?!.*\.\.)[A-Za-z0-9_][\w.-]{0,127}$/

/**
 * The published id of a document id as a request gives it.
 * @returns null for anything that is not a Sanity document id (`drafts.`, `versions.x`,
 *   `drafts.drafts.x`, characters Sanity never uses)
 */
export function publishedIdOf(raw: string): string | null {
  if (!DOCUMENT_ID.test(raw)) return null
  try {
    return getPublishedId(DocumentId(raw))
  } catch {
    return null
  }
}

/** `document "<id>"`, as content errors and the publish gate name a document. */
const NAMED_DOCUMENT = /document "([^"]+)"/g

/**
 * The part of a failed build's reason that one document's editor needs (spec: a badge
 * says what to fix in this document, and nothing of other documents or the machine).
 * @param documentId the published id
 * @param reason the build's whole error, one problem a line (content errors and gate lines
 *   name documents as `document "<id>"`)
 * @returns the lines naming this document (its draft or release versions included); else
 *   which other document failed the build; else that the whole reason is in the publisher's log
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

/** A state as the request may see it (see the module comment). */
function stateFor(documentId: string, status: DocumentStatus | null, editor: boolean) {
  if (!status) return { state: 'unknown' as const }
  if (status.state !== 'failed') return status
  const { at, reason } = status
  return editor
    ? { state: status.state, at, reason: reasonFor(documentId, reason) }
    : { state: status.state, at }
}

/** Registers the routes (see the module comment). */
export async function publishStatusRoutes(
  app: FastifyInstance,
  options: PublishStatusOptions,
): Promise<void> {
  /** CORS for a Studio at one of STUDIO_ORIGINS; never cached. */
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
  // The preflight of a cross-origin request that sends Authorization.
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
