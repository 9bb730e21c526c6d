/**
 * `POST /webhooks/sanity`: Sanity's webhook asks for a rebuild. 202 once the publish is on disk (Sanity
 * never sends a delivery answered 2xx again), 200 for a retried one, 401 for a bad or reused signature,
 * 400 for a body not JSON, 413 over 1 MiB, 503 with Retry-After when the publish could not be recorded.
 */
import { timingSafeEqual } from 'node:crypto'
import { decodeSignatureHeader, encodeSignatureHeader, SIGNATURE_HEADER_NAME } from '@sanity/webhook'
import type { FastifyInstance } from 'fastify'
import { LRUCache } from 'lru-cache'
import { WEBHOOK_PATH } from '../../lib/publisher-routes.ts'
import { keyDigest, KEY_TTL_MS, MAX_FIELD_CHARS, type Delivery } from './publish-journal.ts'

/** Seconds Sanity is asked to wait before it sends a delivery that got 503 again. */
export const RETRY_AFTER_S = 30
/** Largest webhook body accepted: 1 MiB. */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024
/** Longest idempotency key kept and logged as sent (Sanity's are far shorter). */
export const KEY_CHARS = 128

/** An idempotency key (unsigned) as kept and logged: as sent up to KEY_CHARS (as Sanity's log), else `sha256:<digest>`. */
export function deliveryKey(header: string | string[] | undefined): string | undefined {
  const key = String(header ?? '')
  return key.length > KEY_CHARS ? `sha256:${keyDigest(key)}` : key || undefined
}

/** A body's `_id` or `_type`: a string no longer than any document's, else none (it builds all the same). */
const nameOf = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length <= MAX_FIELD_CHARS ? value : undefined

/** Signatures older (or further in the future) than this are refused: 5 minutes. */
export const SIGNATURE_TOLERANCE_MS = 5 * 60_000

/**
 * Sanity's signature, with what `@sanity/webhook` leaves out: a constant-time compare, a time window.
 * @param rawBody the request body exactly as received (bytes, not re-encoded JSON)
 * @param header `sanity-webhook-signature: t=<ms>,v1=<base64url HMAC-SHA256 of "<t>.<raw body>">`
 * @param secrets the webhook's secret, then any others while a rotation settles: any of them holds
 * @returns ok with the signature, or why it was refused; never throws
 */
export async function checkSignature(
  rawBody: Buffer,
  header: string | undefined,
  secrets: readonly string[],
  now = Date.now(),
): Promise<{ ok: true; signature: string } | { ok: false; reason: string }> {
  if (!header) return { ok: false, reason: 'missing signature' }
  let decoded: ReturnType<typeof decodeSignatureHeader>
  try {
    decoded = decodeSignatureHeader(header)
  } catch {
    return { ok: false, reason: 'malformed signature header' }
  }
  const { timestamp, hashedPayload: given } = decoded
  if (!Number.isFinite(timestamp) || Math.abs(now - timestamp) > SIGNATURE_TOLERANCE_MS)
    return { ok: false, reason: 'signature timestamp outside the 5 minute window' }
  const a = Buffer.from(given)
  for (const secret of secrets) {
    const expected = await encodeSignatureHeader(rawBody.toString('utf8'), timestamp, secret).then(
      (signed) => Buffer.from(decodeSignatureHeader(signed).hashedPayload),
      () => null,
    )
    if (!expected) return { ok: false, reason: 'cannot sign this body' }
    if (a.length === expected.length && timingSafeEqual(a, expected)) return { ok: true, signature: given }
  }
  return { ok: false, reason: 'signature mismatch' }
}

export type WebhookOptions = {
  /** `SANITY_WEBHOOK_SECRET`, then `SANITY_WEBHOOK_SECRET_PREVIOUS` while a rotation settles. */
  secrets: readonly string[]
  /** Resolves once the publish is on disk ('duplicate' when it was already); a rejection answers 503. */
  onPublish: (delivery: Delivery) => Promise<string | void> | string | void
  now?: () => number
}

export async function webhookRoutes(app: FastifyInstance, options: WebhookOptions): Promise<void> {
  const now = options.now ?? Date.now
  // Keys seen: a day for idempotency keys, a signature's whole tolerance for used signatures.
  const recent = (ttl: number) =>
    new LRUCache<string, true>({ max: 10_000, ttl, ttlResolution: 0, perf: { now } })
  const deliveries = recent(KEY_TTL_MS)
  const signatures = recent(2 * SIGNATURE_TOLERANCE_MS)

  // The signature covers the raw bytes, so this route keeps them unparsed.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_req, body, done) => done(null, body),
    )
    scope.post(WEBHOOK_PATH, { bodyLimit: WEBHOOK_BODY_LIMIT }, async (request, reply) => {
      const refuse = (reason: string, code = 401, error = 'invalid signature') => {
        request.log.warn({ event: 'webhook.rejected', reason }, 'webhook refused')
        return reply.code(code).send({ error })
      }
      const duplicate = () => {
        request.log.info({ event: 'webhook.duplicate', idempotencyKey }, 'webhook already accepted')
        return reply.code(200).send({ status: 'duplicate' })
      }
      const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
      const header = request.headers[SIGNATURE_HEADER_NAME]
      const check = await checkSignature(rawBody, [header].flat()[0], options.secrets, now())
      if (!check.ok) return refuse(check.reason)
      const idempotencyKey = deliveryKey(request.headers['idempotency-key'])
      if (idempotencyKey && deliveries.has(idempotencyKey)) return duplicate()
      if (signatures.has(check.signature)) return refuse('signature reused')
      let body: unknown
      try {
        body = JSON.parse(rawBody.toString('utf8'))
      } catch {
        return refuse('malformed JSON', 400, 'body is not JSON')
      }
      signatures.set(check.signature, true)
      if (idempotencyKey) deliveries.set(idempotencyKey, true)
      const doc = (body instanceof Object ? body : {}) as Record<string, unknown>
      const delivery = { documentId: nameOf(doc._id), type: nameOf(doc._type), idempotencyKey }
      let recorded: string | void
      try {
        recorded = await options.onPublish(delivery)
      } catch (error) {
        // Not accepted: the same delivery, sent again, must be taken.
        signatures.delete(check.signature)
        if (idempotencyKey) deliveries.delete(idempotencyKey)
        request.log.error(
          { event: 'webhook.unrecorded', ...delivery, error: (error as Error).message },
          'the publish could not be recorded on disk: answered 503, Sanity will send it again',
        )
        return reply
          .code(503)
          .header('Retry-After', String(RETRY_AFTER_S))
          .send({ error: 'the publish could not be recorded; try again later' })
      }
      if (recorded === 'duplicate') return duplicate()
      request.log.info({ event: 'webhook.accepted', ...delivery }, 'webhook accepted')
      return reply.code(202).send({ status: 'accepted' })
    })
  })
}
