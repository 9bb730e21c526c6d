/**
 * @jest-environment node
 *
 * The preview's doors tried as an attacker would (server/preview/preview.ts, preview-sessions.ts,
 * guess-limit.ts, editor-access.ts, health.ts, log.ts, app.ts): redirects stay on the site,
 * guessing costs, a session ends for good (and with it the preview server's pages), errors
 * are for editors, secrets never reach the log.
 */
import { safeRedirect } from '@/server/preview/preview'
import { PreviewDown } from '@/server/preview/preview-process'
import { deliverWebhook, operatorHeaders, startFixture, type Fixture } from '../../helpers/publisherFixture'

jest.setTimeout(60_000)
const SECRET = 'webhook-secret-0123456789abcdef0123456789'
const PREVIEW = 'preview-secret-0123456789abcdef0123456789'
let site: Fixture

type Answer = Awaited<ReturnType<Fixture['app']['inject']>>
const enable = (secret = PREVIEW, redirect = '/', remoteAddress = '203.0.113.7') =>
  site.app.inject({
    url: `/preview/enable?secret=${encodeURIComponent(secret)}&redirect=${encodeURIComponent(redirect)}`,
    remoteAddress,
  })
const cookieOf = (answer: Answer) =>
  answer.cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ')
/**
 * Whether a cookie header opens the preview: /healthz then gives the whole report, and a
 * page is the preview server's (helpers/publisherFixture.ts `previewRenderer`), never one
 * without the other.
 */
const opensPreview = async (cookie: string) => {
  const editor = 'lastError' in (await site.app.inject({ url: '/healthz', headers: { cookie } })).json()
  const page = await site.app.inject({ url: '/sites', headers: { cookie } })
  expect([cookie, page.body.includes('<h1>Preview of GET /sites: ')]).toEqual([cookie, editor])
  return editor
}

describe('redirects stay on the site', () => {
  test.each([
    '/.//evil.example/',
    '/..//evil.example/',
    '/a/..//evil.example/',
    '/%2e//evil.example/',
    '/%2E%2E//evil.example/',
    '/.\\/evil.example/',
    '/\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '//evil.example',
    'https://evil.example/',
    'evil.example',
    '',
  ])('%j falls back to /', (value) => {
    expect(safeRedirect(value)).toBe('/')
  })

  test('paths on the site keep their query and hash, resolved', () => {
    expect(safeRedirect('/case-studies/x?y=1#top')).toBe('/case-studies/x?y=1#top')
    expect(safeRedirect('/a/../sites')).toBe('/sites')
    expect(safeRedirect(undefined)).toBe('/')
  })
})

describe('the doors of a running publisher', () => {
  beforeEach(async () => {
    // No first build: the doors answer without a live site (and the tests run in a second).
    site = await startFixture({ webhookSecret: SECRET, previewSecret: PREVIEW }, false)
  })
  afterEach(() => site.close())
  describe('redirects stay on the site, on the publisher', () => {
    test('/preview/enable answers with the resolved, checked path', async () => {
      expect((await enable(PREVIEW, '/.//evil.example/')).headers.location).toBe('/')
      expect((await enable(PREVIEW, '/a/..//evil.example/')).headers.location).toBe('/')
      expect((await enable(PREVIEW, '/sites#top')).headers.location).toBe('/sites#top')
    })
  })

  describe('guessing the secret costs', () => {
    test('the 11th wrong secret in a minute gets 429 with Retry-After; one log line per client and window', async () => {
      for (let i = 0; i < 10; i++) expect((await enable(`wrong-${i}`)).statusCode).toBe(401)
      const locked = await enable('wrong-11')
      expect(locked.statusCode).toBe(429)
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0)
      expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(60)
      // Locked means locked: even the right secret waits, and is not checked.
      expect((await enable(PREVIEW)).statusCode).toBe(429)
      // Another client is not held up by this one.
      expect((await enable(PREVIEW, '/', '198.51.100.2')).statusCode).toBe(303)
      const events = site.logs.map((line) => line.event)
      expect(events.filter((event) => event === 'guess.wrong')).toHaveLength(1)
      expect(events.filter((event) => event === 'guess.locked')).toHaveLength(1)
      expect(events).not.toContain('preview.refused')
    })

    test('right secrets are never counted, and a lock ends with its window', async () => {
      await site.close()
      site = await startFixture(
        {
          webhookSecret: SECRET,
          previewSecret: PREVIEW,
          wrongGuesses: { max: 2, timeWindow: 400 },
        },
        false,
      )
      for (let i = 0; i < 5; i++) expect((await enable()).statusCode).toBe(303)
      await enable('wrong')
      await enable('wrong')
      expect((await enable()).statusCode).toBe(429)
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect((await enable()).statusCode).toBe(303)
    })

    test('wrong editor tokens count too', async () => {
      for (let i = 0; i < 10; i++) {
        const answer = await site.app.inject({
          url: '/healthz',
          headers: { authorization: `Bearer guess-${i}` },
          remoteAddress: '203.0.113.9',
        })
        expect(answer.statusCode).toBe(401)
      }
      const locked = await site.app.inject({
        url: '/api/publish-status/review-a',
        headers: { authorization: 'Bearer guess-11' },
        remoteAddress: '203.0.113.9',
      })
      expect(locked.statusCode).toBe(429)
    })
  })

  describe('preview sessions, not a shared password', () => {
    test('each enable opens its own session, with a lifetime', async () => {
      const first = await enable()
      const second = await enable()
      expect(cookieOf(first)).not.toBe(cookieOf(second))
      expect(first.cookies[0]).toMatchObject({ maxAge: 8 * 3600, httpOnly: true })
      expect(await opensPreview(cookieOf(first))).toBe(true)
      expect(await opensPreview(cookieOf(second))).toBe(true)
    })

    test('a cookie copied before /preview/disable opens nothing after it; other sessions stay open', async () => {
      const mine = cookieOf(await enable())
      const theirs = cookieOf(await enable())
      const left = await site.app.inject({
        url: '/preview/disable',
        headers: { cookie: mine, 'sec-fetch-site': 'same-origin' },
      })
      expect(left.statusCode).toBe(303)
      expect(await opensPreview(mine)).toBe(false)
      expect(await opensPreview(theirs)).toBe(true)
    })

    test('the banner may leave by POST; another site can end nobody’s session', async () => {
      const cookie = cookieOf(await enable())
      for (const method of ['GET', 'POST'] as const) {
        for (const site_ of ['cross-site', 'same-site']) {
          const refused = await site.app.inject({
            method,
            url: '/preview/disable',
            headers: { cookie, 'sec-fetch-site': site_ },
          })
          expect([method, site_, refused.statusCode]).toEqual([method, site_, 403])
        }
      }
      expect(await opensPreview(cookie)).toBe(true)
      const left = await site.app.inject({
        method: 'POST',
        url: '/preview/disable',
        headers: {
          cookie,
          'sec-fetch-site': 'same-origin',
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: '',
      })
      expect(left.statusCode).toBe(303)
      expect(await opensPreview(cookie)).toBe(false)
    })

    test('a cookie older than its lifetime opens nothing', async () => {
      await site.close()
      site = await startFixture(
        { webhookSecret: SECRET, previewSecret: PREVIEW, previewSessionMs: 300 },
        false,
      )
      const cookie = cookieOf(await enable())
      expect(await opensPreview(cookie)).toBe(true)
      await new Promise((resolve) => setTimeout(resolve, 400))
      expect(await opensPreview(cookie)).toBe(false)
    })

    test("a draft's image (/preview-media/) is the preview server's to answer, for a session only", async () => {
      const url = `/preview-media/image-${'a'.repeat(40)}-3x2-png`
      const cookie = cookieOf(await enable())
      const editor = await site.app.inject({ url, headers: { cookie } })
      expect(editor.body).toContain(`<h1>Preview of GET ${url}: `)
      for (const headers of [{}, { cookie: 'site_preview=forged' }]) {
        const anyone = await site.app.inject({ url, headers })
        // The live site's answer (with no build live in this fixture, 503), never the preview's.
        expect(anyone.statusCode).toBe(503)
        expect(anyone.body).not.toContain('Preview of')
      }
      await site.app.inject({ url: '/preview/disable', headers: { cookie, 'sec-fetch-site': 'same-origin' } })
      expect((await site.app.inject({ url, headers: { cookie } })).body).not.toContain('Preview of')
    })

    test('forged cookies open nothing: unsigned, signed with the secret itself, or a made-up session', async () => {
      const { sign } = await import('@fastify/cookie')
      for (const value of ['on', sign('on', PREVIEW), sign('AAAAAAAAAAAAAAAAAAAAAAAA.1', PREVIEW)])
        expect(await opensPreview(`site_preview=${encodeURIComponent(value)}`)).toBe(false)
    })
  })

  describe('rotating a secret locks nobody out', () => {
    const NEXT = 'next-preview-secret-0123456789abcdef012345'
    const NEXT_WEBHOOK = 'next-webhook-secret-0123456789abcdef012345'
    beforeEach(async () => {
      await site.close()
      site = await startFixture(
        {
          webhookSecret: NEXT_WEBHOOK,
          previousWebhookSecret: SECRET,
          previewSecret: NEXT,
          previousPreviewSecret: PREVIEW,
        },
        false,
      )
    })

    test('the previous preview secret still opens a session, and so does the new one', async () => {
      expect((await enable(PREVIEW)).statusCode).toBe(303)
      expect((await enable(NEXT)).statusCode).toBe(303)
      expect(await opensPreview(cookieOf(await enable(PREVIEW)))).toBe(true)
    })

    test("webhooks signed with either secret are accepted; the operator's token from either works", async () => {
      expect((await deliverWebhook(site, SECRET, 'review-a', 'k1')).statusCode).toBe(202)
      expect((await deliverWebhook(site, NEXT_WEBHOOK, 'review-a', 'k2')).statusCode).toBe(202)
      expect((await deliverWebhook(site, 'some-other-secret', 'review-a', 'k3')).statusCode).toBe(401)
      for (const secret of [SECRET, NEXT_WEBHOOK])
        expect(
          (await site.app.inject({ url: '/healthz', headers: operatorHeaders(secret) })).json(),
        ).toHaveProperty('lastError')
      await site.publisher.idle()
    })
  })

  describe('errors are for editors', () => {
    test('/healthz: anyone gets ok, the live build, building and queued; editors get the rest', async () => {
      site.publisher.request()
      await site.publisher.idle()
      const anonymous = await site.app.inject({
        url: '/healthz',
        headers: { 'sec-fetch-site': 'same-origin', origin: 'https://evil.example' },
      })
      expect(anonymous.statusCode).toBe(200)
      expect(Object.keys(anonymous.json()).sort()).toEqual(['building', 'live', 'ok', 'queued'])
      expect(anonymous.headers['cache-control']).toBe('no-store')
      const editor = await site.app.inject({ url: '/healthz', headers: { cookie: cookieOf(await enable()) } })
      expect(editor.json()).toMatchObject({ lastError: null, preview: 'ready', webhook: 'on' })
    })

    test("why the preview server is down is a class for editors (/healthz and a session's pages), and nothing for anyone else", async () => {
      await site.close()
      site = await startFixture(
        { webhookSecret: SECRET, previewSecret: PREVIEW, previewServer: () => new PreviewDown('crashed') },
        false,
      )
      const anonymous = await site.app.inject({ url: '/healthz' })
      expect(Object.keys(anonymous.json()).sort()).toEqual(['building', 'live', 'ok', 'queued'])
      const cookie = cookieOf(await enable())
      expect((await site.app.inject({ url: '/healthz', headers: { cookie } })).json().preview).toEqual({
        failed: 'crashed',
      })
      const editor = await site.app.inject({ url: '/sites', headers: { cookie } })
      expect([editor.statusCode, editor.body]).toEqual([
        503,
        'the preview is restarting after its process ended. Try again shortly.',
      ])
    })
  })

  test('no secret reaches the log: query strings, wrong methods, headers, tokens', async () => {
    await site.app.inject({ method: 'POST', url: `/preview/enable?secret=${PREVIEW}&redirect=/` })
    await site.app.inject({ method: 'PUT', url: `/preview/enable?secret=${PREVIEW}` })
    await enable(`${PREVIEW}-almost`)
    await site.app.inject({
      method: 'POST',
      url: `/api/contact?token=${PREVIEW}`,
      headers: { authorization: `Bearer ${SECRET}`, cookie: `x=${PREVIEW}` },
      payload: { name: PREVIEW },
    })
    await site.app.inject({ url: '/healthz', headers: { authorization: `Bearer ${PREVIEW}` } })
    await site.app.inject({
      method: 'POST',
      url: `/preview/perspective?secret=${PREVIEW}`,
      headers: { 'content-type': 'application/json', cookie: cookieOf(await enable()) },
      payload: JSON.stringify({ perspective: PREVIEW }),
    })
    await site.app.inject({
      method: 'POST',
      url: `/sites?secret=${PREVIEW}`,
      headers: { cookie: `x=${PREVIEW}` },
    })
    await deliverWebhook(site, PREVIEW, 'review-a')
    await deliverWebhook(site, SECRET, 'review-a', 'another-key')
    await site.publisher.idle()
    const log = JSON.stringify(site.logs)
    expect(site.logs.length).toBeGreaterThan(5)
    expect(log).not.toContain(PREVIEW)
    expect(log).not.toContain(SECRET)
    expect(log).toContain('"path":"/preview/enable"')
    expect(log).toContain('"path":"/preview/perspective"')
  })
})
