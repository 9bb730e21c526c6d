/** The client of a running publisher for scripts and tests: signed webhooks, `/healthz`, waiting until it settles. */
import { randomUUID } from 'node:crypto'
import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from '@sanity/webhook'
import { HEALTH_PATH, WEBHOOK_PATH } from '../lib/publisher-routes.ts'
import type { HealthReport } from '../server/serving/health.ts'
import { operatorHeaders } from '../server/secrets.ts'

/** Sanity's webhook headers for `body` (the exact JSON signed); the publisher refuses a `signedAt` 5 min off. */
export const webhookHeaders = async (
  body: string,
  secret: string,
  idempotencyKey: string = randomUUID(),
  signedAt = Date.now(),
) => ({
  'content-type': 'application/json',
  'idempotency-key': idempotencyKey,
  [SIGNATURE_HEADER_NAME]: await encodeSignatureHeader(body, signedAt, secret),
})

/**
 * Sends the webhook Sanity sends when `document` is published to the publisher at `base`.
 * @returns 202 accepted, 200 already accepted, 401 a wrong signature, 404 webhook off; throws TypeError unreached
 */
export async function sendWebhook(
  base: string,
  secret: string,
  document: { _id: string; _type: string; [field: string]: unknown },
  idempotencyKey?: string,
): Promise<number> {
  const body = JSON.stringify(document)
  const headers = await webhookHeaders(body, secret, idempotencyKey)
  return (await fetch(`${base}${WEBHOOK_PATH}`, { method: 'POST', headers, body })).status
}

/** The whole `/healthz` report, asked as the operator; throws TypeError unreached, SyntaxError on no JSON. */
export const readHealth = async (base: string, secret: string): Promise<HealthReport> =>
  (await fetch(`${base}${HEALTH_PATH}`, { headers: operatorHeaders(secret) })).json()

/** Polls `/healthz` every `intervalMs` ms until nothing is building or queued; returns that report. */
export async function waitUntilSettled(
  base: string,
  secret: string,
  intervalMs = 100,
): Promise<HealthReport> {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
    const now = await readHealth(base, secret)
    if (!now.building && !now.queued) return now
  }
}

/** Whether the public `/healthz` answers 200 (a live build); false when it answers 503 or nothing answers. */
export const servesLiveBuild = (base: string): Promise<boolean> =>
  fetch(`${base}${HEALTH_PATH}`).then(
    (response) => response.ok,
    () => false,
  )
