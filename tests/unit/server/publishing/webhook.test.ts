/**
 * @jest-environment node
 */
import { encodeSignatureHeader } from '@sanity/webhook'
import { keyDigest } from '@/server/publishing/publish-journal'
import { deliveryKey } from '@/server/publishing/webhook'
import { checkSignature } from '@/server/publishing/webhook'
import { buildCount, startFixture, type Fixture } from '../../helpers/publisherFixture'

const SECRET = 'test-secret-1234'
let site: Fixture
let clock = Date.now()
beforeEach(async () => {
  clock = Date.now()
  site = await startFixture({ webhookSecret: SECRET, now: () => clock })
}, 30_000)
afterEach(() => site.close())

const body = JSON.stringify({ _id: 'review-osteopath', _type: 'review' })

async function post(payload: string, signature: string | undefined, headers: Record<string, string> = {}) {
  return site.app.inject({
    method: 'POST',
    url: '/webhooks/sanity',
    headers: {
      'content-type': 'application/json',
      ...(signature === undefined ? {} : { 'sanity-webhook-signature': signature }),
      ...headers,
    },
    payload,
  })
}

/** Requests for a build the publisher received (from its structured log). */
const buildRequests = () => site.logs.filter((line) => line.event === 'build.requested').length

test('a valid signature is accepted with 202 at once, and one build follows', async () => {
  const requestsBefore = buildRequests()
  const response = await post(body, await encodeSignatureHeader(body, clock, SECRET), {
    'idempotency-key': 'a',
  })
  expect(response.statusCode).toBe(202)
  expect(buildRequests()).toBe(requestsBefore + 1)
  expect(site.logs).toContainEqual(
    expect.objectContaining({ event: 'webhook.accepted', documentId: 'review-osteopath' }),
  )
  await site.publisher.idle()
  expect(buildCount(site)).toBe(2) // the fixture's first build, then this one
})

test('missing, malformed, forged, wrong-secret, tampered, stale and future signatures get 401 and build nothing', async () => {
  const requestsBefore = buildRequests()
  const cases: [string, string | undefined, string][] = [
    ['missing', undefined, body],
    ['malformed', 'v1=abc', body],
    ['forged', `t=${clock},v1=${Buffer.from('x'.repeat(32)).toString('base64url')}`, body],
    ['wrong secret', await encodeSignatureHeader(body, clock, 'another-secret'), body],
    ['tampered body', await encodeSignatureHeader(body, clock, SECRET), body.replace('osteopath', 'barber')],
    ['stale (6 minutes old)', await encodeSignatureHeader(body, clock - 6 * 60_000, SECRET), body],
    ['from the future (6 minutes)', await encodeSignatureHeader(body, clock + 6 * 60_000, SECRET), body],
  ]
  for (const [name, signature, payload] of cases) {
    const response = await post(payload, signature)
    expect([name, response.statusCode]).toEqual([name, 401])
  }
  expect(buildRequests()).toBe(requestsBefore)
})

test('a replayed signature is refused; a retried delivery (same idempotency-key) is acknowledged without a build', async () => {
  const signature = await encodeSignatureHeader(body, clock, SECRET)
  expect((await post(body, signature, { 'idempotency-key': 'one' })).statusCode).toBe(202)
  const requestsAfterFirst = buildRequests()
  const retry = await post(body, signature, { 'idempotency-key': 'one' })
  expect(retry.statusCode).toBe(200)
  expect(retry.json()).toEqual({ status: 'duplicate' })
  expect((await post(body, signature, { 'idempotency-key': 'two' })).statusCode).toBe(401)
  expect((await post(body, signature)).statusCode).toBe(401)
  expect(buildRequests()).toBe(requestsAfterFirst)
})

test('a 15 kB idempotency key deduplicates as a short one does, kept and logged as its digest; an _id longer than any document names none', async () => {
  const key = 'k'.repeat(15_000)
  const payload = JSON.stringify({ _id: 'x'.repeat(300), _type: 'review' })
  const signature = await encodeSignatureHeader(payload, clock, SECRET)
  expect((await post(payload, signature, { 'idempotency-key': key })).statusCode).toBe(202)
  const retry = await post(payload, signature, { 'idempotency-key': key })
  expect(retry.json()).toEqual({ status: 'duplicate' })
  expect(site.logs).toContainEqual(
    expect.objectContaining({ event: 'webhook.accepted', idempotencyKey: `sha256:${keyDigest(key)}` }),
  )
  const log = JSON.stringify(site.logs)
  expect(log).not.toContain('kkkkkkkk')
  expect(log).not.toContain('xxxxxxxx')
  // Sanity's own keys stay as sent: the log matches its delivery log.
  expect(deliveryKey('idem-0123')).toBe('idem-0123')
  await site.publisher.idle()
})

test('a signed body that is not JSON gets 400; a body over 1 MiB gets 413; neither builds', async () => {
  const requestsBefore = buildRequests()
  const broken = '{"_id": "x",'
  expect((await post(broken, await encodeSignatureHeader(broken, clock, SECRET))).statusCode).toBe(400)
  const huge = JSON.stringify({ _id: 'x', text: 'a'.repeat(1024 * 1024) })
  expect((await post(huge, await encodeSignatureHeader(huge, clock, SECRET))).statusCode).toBe(413)
  expect(buildRequests()).toBe(requestsBefore)
})

test('without a secret the route is off (404)', async () => {
  const off = await startFixture({}, false)
  const response = await off.app.inject({ method: 'POST', url: '/webhooks/sanity', payload: body })
  expect(response.statusCode).toBe(404)
  await off.close()
})

test('checkSignature compares in constant time over the raw bytes', async () => {
  const raw = Buffer.from('{"a":"é"}')
  const header = await encodeSignatureHeader(raw.toString('utf8'), clock, SECRET)
  expect(await checkSignature(raw, header, [SECRET], clock)).toMatchObject({ ok: true })
  // Same JSON, other bytes (re-encoded): refused, so the raw body must be what is checked.
  expect(await checkSignature(Buffer.from('{"a": "é"}'), header, [SECRET], clock)).toMatchObject({
    ok: false,
  })
  expect(await checkSignature(raw, header.slice(0, -2), [SECRET], clock)).toEqual({
    ok: false,
    reason: 'signature mismatch',
  })
})
