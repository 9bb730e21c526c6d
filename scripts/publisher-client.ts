/** The client of a running publisher for scripts and tests: signed webhooks, `/healthz`, waiting until it settles. */
import { randomUUID } from 'node:crypto'
import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from '@sanity/webhook'
import { HEALTH_PATH, WEBHOOK_PATH } from '../lib/publisher-routes.ts'
import type { HealthReport } from '../server/serving/health.ts'
import { operatorHeaders } from '../server/secrets.ts'

/** Sanity's webhook headers for `body` (the exact JSON signed); the publisher refuses a `signedAt` 5 min off. */
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
 * Sends the webhook Sanity sends when `document` is published to the publisher at `base`.
 * @returns 202 accepted, 200 already accepted, 401 a wrong signature, 404 webhook off; throws TypeError unreached
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

/** The whole `/healthz` report, asked as the operator; throws TypeError unreached, SyntaxError on no JSON. */
export async function readHealth(base: string, webhookSecret: string): Promise<HealthReport> {
  const response = await fetch(`${base}${HEALTH_PATH}`, { headers: operatorHeaders(webhookSecret) })
  return (await response.json()) as HealthReport
}

/** Polls `/healthz` every `intervalMs` ms until nothing is building or queued; returns that report. */
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

/** Whether the public `/healthz` answers 200 (a live build); false when it answers 503 or nothing answers. */
export async function servesLiveBuild(base: string): Promise<boolean> {
  return fetch(`${base}${HEALTH_PATH}`).then(
    (response) => response.ok,
    () => false,
  )
}
