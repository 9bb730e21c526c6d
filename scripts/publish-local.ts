/** `npm run publish:local [-- --no-wait --url <origin> --document <_id>]`: a publish's webhook, then the time to live. */
import { isPublishedId } from '../lib/content/source.ts'
import { WEBHOOK_PATH } from '../lib/publisher-routes.ts'
import { readHealth, sendWebhook, waitUntilSettled } from './publisher-client.ts'

const secret = process.env.SANITY_WEBHOOK_SECRET?.trim()
if (!secret) {
  console.error(
    'publish:local: set SANITY_WEBHOOK_SECRET (the same value `npm start` runs with; see .env.example)',
  )
  process.exit(1)
}
const flag = (name: string) => process.argv[process.argv.indexOf(name) + 1 || process.argv.length]
const base = flag('--url') ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`
const documentId = flag('--document') ?? 'publish-local'

const before = await readHealth(base, secret)
const started = performance.now()
const status = await sendWebhook(base, secret, {
  _id: documentId,
  _type: 'manual',
  publishedAt: new Date().toISOString(),
})
console.log(`publish:local: ${base}${WEBHOOK_PATH} answered ${status}`)
if (status !== 202) process.exit(1)
if (process.argv.includes('--no-wait')) process.exit(0)

if (!isPublishedId(documentId)) {
  console.log(
    before.preview === 'off'
      ? 'publish:local: a draft builds nothing (and preview is off on this server: set SANITY_PREVIEW_SECRET)'
      : 'publish:local: a draft builds nothing: the preview shows it on the next request',
  )
  process.exit(0)
}
for (;;) {
  const now = await waitUntilSettled(base, secret, 250)
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
  if (now.buildCounts.cancelled > before.buildCounts.cancelled) {
    console.error('publish:local: the build was cancelled: the publisher is shutting down')
    process.exit(1)
  }
}
