/**
 * `npm run publish:local`: does what Sanity does when an editor publishes:
 * signs a webhook with SANITY_WEBHOOK_SECRET and POSTs it to the running server
 * (http://127.0.0.1:PORT/webhooks/sanity), then waits until the rebuild is live
 * and prints how long publish-to-live took. With the embedded default this
 * rebuilds from the local dataset file: edit studio/seed/dataset.ndjson, run this.
 * Options: --no-wait (return after the 202), --url http://host:port,
 *          --document <_id> (the document the webhook names, as Sanity's does; the Studio's
 *          badge then reads its state from /api/publish-status/<_id>). A draft's id
 *          (`drafts.<_id>`, as a webhook with drafts on sends it) builds nothing: the
 *          preview renders drafts on request.
 */
import { randomUUID } from 'node:crypto'
import { encodeSignatureHeader } from '@sanity/webhook'
import type { HealthReport } from '../server/health.ts'
import { operatorHeaders } from '../server/secrets.ts'

const secret = process.env.SANITY_WEBHOOK_SECRET?.trim()
if (!secret) {
  console.error(
    'publish:local: set SANITY_WEBHOOK_SECRET (the same value `npm start` runs with; see .env.example)',
  )
  process.exit(1)
}
const urlFlag = process.argv.indexOf('--url')
const base = urlFlag > 0 ? process.argv[urlFlag + 1] : `http://127.0.0.1:${process.env.PORT ?? 3000}`
const wait = !process.argv.includes('--no-wait')
const documentFlag = process.argv.indexOf('--document')
const documentId = (documentFlag > 0 ? process.argv[documentFlag + 1] : undefined) ?? 'publish-local'

// The whole report (a failure's reason) is for editors and the operator: this script proves
// it is the operator with the token derived from the webhook secret it signs with.
const health = async (): Promise<HealthReport> =>
  (await fetch(`${base}/healthz`, { headers: operatorHeaders(secret) })).json() as Promise<HealthReport>

const before = await health()
const body = JSON.stringify({ _id: documentId, _type: 'manual', publishedAt: new Date().toISOString() })
const started = performance.now()
const response = await fetch(`${base}/webhooks/sanity`, {
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    'idempotency-key': randomUUID(),
    'sanity-webhook-signature': await encodeSignatureHeader(body, Date.now(), secret),
  },
  body,
})
console.log(`publish:local: ${base}/webhooks/sanity answered ${response.status}`)
if (response.status !== 202) process.exit(1)
if (!wait) process.exit(0)

if (documentId.startsWith('drafts.') || documentId.startsWith('versions.')) {
  console.log(
    before.preview === 'off'
      ? 'publish:local: a draft builds nothing (and preview is off on this server: set SANITY_PREVIEW_SECRET)'
      : 'publish:local: a draft builds nothing: the preview shows it on the next request',
  )
  process.exit(0)
}
for (;;) {
  await new Promise((resolve) => setTimeout(resolve, 250))
  const now = await health()
  if (now.building || now.queued) continue
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  if (now.live && now.live.id !== before.live?.id) {
    console.log(`publish:local: build ${now.live.id} is live, ${seconds} s after publishing`)
    process.exit(0)
  }
  if (now.lastError && now.lastError.at !== before.lastError?.at) {
    console.error(
      `publish:local: the build failed; ${before.live?.id ?? 'nothing'} stays live.\n${now.lastError.message}`,
    )
    process.exit(1)
  }
}
