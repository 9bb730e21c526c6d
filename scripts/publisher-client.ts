/**
 * The publisher's client, for the programs that drive a running publisher (`publish:local`,
 * the benchmarks, the audits) and for the tests: a webhook signed as Sanity signs it,
 * `/healthz` read in whole as the operator, and waiting until the publisher has settled.
 * A module, not a command. Both halves of each rule come from the publisher's side:
 * the addresses from lib/publisher-routes.ts, the signature from `@sanity/webhook` (which
 * the publisher checks with, server/webhook-signature.ts), the operator's proof from
 * server/secrets.ts, the report's type from server/health.ts.
 */
import { randomUUID } from 'node:crypto'
import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from '@sanity/webhook'
import { HEALTH_PATH, WEBHOOK_PATH } from '../lib/publisher-routes.ts'
import type { HealthReport } from '../server/health.ts'
import { operatorHeaders } from '../server/secrets.ts'

/**
 * The headers Sanity's webhook sends with a body: the signature, an idempotency key.
 * @param body the exact bytes to be sent (JSON text); the signature covers them
 * @param webhookSecret SANITY_WEBHOOK_SECRET, as the publisher runs with it
 * @param idempotencyKey the delivery's key: Sanity's retries repeat it (default: a new one)
 * @param signedAt the signature's time, ms since the epoch (default now; the publisher
 *   refuses one more than 5 minutes off)
 */
export async function webhookHeaders(
  body: string,
  webhookSecret: string,
  idempotencyKey: string = randomUUID(),
  signedAt = Date.now(),
): Promise<Record<string, string>> {
  return {
    'content-type': 'application/json',
    'idempotency-key': idempotencyKey,
    [SIGNATURE_HEADER_NAME]: await encodeSignatureHeader(body, signedAt, webhookSecret),
  }
}

/**
 * Sends the webhook Sanity sends when a document is published (a `drafts.` or `versions.`
 * id, as a webhook with drafts on sends, builds nothing).
 * @param base the publisher's origin, e.g. `http://127.0.0.1:3000`
 * @param document the body: at least the document's `_id` and `_type`
 * @param idempotencyKey as in `webhookHeaders` (default: a new one)
 * @returns the HTTP status: 202 accepted, 200 already accepted, 401 a wrong signature, 404 webhook off
 * @throws TypeError when the publisher cannot be reached
 */
export async function sendWebhook(
  base: string,
  webhookSecret: string,
  document: { _id: string; _type: string; [field: string]: unknown },
  idempotencyKey?: string,
): Promise<number> {
  const body = JSON.stringify(document)
  const response = await fetch(`${base}${WEBHOOK_PATH}`, {
    method: 'POST',
    headers: await webhookHeaders(body, webhookSecret, idempotencyKey),
    body,
  })
  return response.status
}

/**
 * The publisher's whole `/healthz` report (errors included), asked as the operator: the
 * token derived from the webhook secret proves it.
 * @param base the publisher's origin
 * @throws TypeError when the publisher cannot be reached; SyntaxError when it does not answer JSON
 */
export async function readHealth(base: string, webhookSecret: string): Promise<HealthReport> {
  const response = await fetch(`${base}${HEALTH_PATH}`, { headers: operatorHeaders(webhookSecret) })
  return (await response.json()) as HealthReport
}

/**
 * Polls `/healthz` until nothing is building or queued.
 * @param base the publisher's origin
 * @param intervalMs time between two asks, ms (the first ask waits it too)
 * @returns the report that says so
 * @throws as `readHealth`
 */
export async function waitUntilSettled(
  base: string,
  webhookSecret: string,
  intervalMs = 100,
): Promise<HealthReport> {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
    const now = await readHealth(base, webhookSecret)
    if (!now.building && !now.queued) return now
  }
}

/**
 * Whether the publisher serves a live build: its public `/healthz` answers 200 (503 while
 * nothing is live). Needs no secret.
 * @param base the publisher's origin
 * @returns false as well when nothing answers there yet
 */
export async function servesLiveBuild(base: string): Promise<boolean> {
  return fetch(`${base}${HEALTH_PATH}`).then(
    (response) => response.ok,
    () => false,
  )
}
