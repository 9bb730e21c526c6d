/**
 * @jest-environment node
 *
 * Editors' draft preview on the publisher (server/app.ts, preview.ts, publisher.ts,
 * health.ts), with the fake build and a stand-in of the preview server
 * (helpers/publisherFixture.ts `previewRenderer`): a draft's webhook builds nothing; an open
 * session's requests go to the preview server, which shows the drafts as they are now, with
 * noindex and no-store; the Studio and the live build's hashed files stay the live build's;
 * visitors never see a preview; Presentation's perspective switcher sets its cookie.
 */
import { PREVIEW_PERSPECTIVE_PATH } from '@/lib/publisher-routes'
import { presentationClient } from '@/server/preview/preview'
import { PreviewDown, type PreviewHandler } from '@/server/preview/preview-process'
import * as studioApi from '@/studio/publisherApi'
import {
  buildCount,
  deliverWebhook,
  operatorHeaders,
  startFixture,
  type Fixture,
  type PreviewServerState,
} from '../../helpers/publisherFixture'
import { startSanityStandIn, type StandIn } from '../../helpers/sanityStandIn'

jest.setTimeout(60_000)
const SECRET = 'webhook-secret'
const PREVIEW = 'preview-secret-for-tests'
let site: Fixture
beforeEach(async () => {
  site = await startFixture({ webhookSecret: SECRET, previewSecret: PREVIEW })
  await site.publisher.idle()
})
afterEach(() => site.close())

type Answer = Awaited<ReturnType<Fixture['app']['inject']>>

async function deliver(id: string) {
  const answer = await deliverWebhook(site, SECRET, id, `${id}-${Math.random()}`)
  expect(answer.statusCode).toBe(202)
  await site.publisher.idle()
}

/** The preview cookie, as /preview/enable sets it. */
async function enable(secret = PREVIEW, redirect = '/sites') {
  return site.app.inject({
    url: `/preview/enable?secret=${encodeURIComponent(secret)}&redirect=${encodeURIComponent(redirect)}`,
  })
}
const cookieOf = (answer: { cookies: { name: string; value: string }[] }) =>
  answer.cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ')
/** An open session's cookie header. */
const session = async () => cookieOf(await enable())
const page = (cookie?: string, url = '/') => site.app.inject({ url, headers: cookie ? { cookie } : {} })
/** What the stand-in preview server answers for a request (helpers/publisherFixture.ts). */
const previewOf = (method: string, path: string, drafts: string) =>
  `<h1>Preview of ${method} ${path}: ${drafts}</h1>`
const setCookies = (answer: Answer) =>
  ([] as string[]).concat((answer.headers['set-cookie'] as string[]) ?? [])

/** /healthz as the operator's scripts read it (the whole report). */
const health = async () =>
  (await site.app.inject({ url: '/healthz', headers: operatorHeaders(SECRET) })).json()

/** A fixture whose preview server is in the state `state()` says, on each request. */
async function restartWithPreviewServer(state: (renderer: PreviewHandler) => PreviewServerState) {
  await site.close()
  site = await startFixture({ webhookSecret: SECRET, previewSecret: PREVIEW, previewServer: state })
}

test('a draft or a release version builds nothing; the session shows the drafts as they are now, visitors the live site', async () => {
  const live = (await health()).live.id
  site.setDraft('draft text')
  const before = buildCount(site)
  await deliver('drafts.review-a')
  await deliver('versions.rSpring.review-a')
  expect(buildCount(site)).toBe(before)
  expect(site.logs.filter((line) => line.event === 'build.skipped').map((line) => line.documentId)).toEqual([
    'drafts.review-a',
    'versions.rSpring.review-a',
  ])
  expect((await health()).live.id).toBe(live)

  const visitor = await page()
  expect(visitor.body).toContain('<h1>v1</h1>')
  expect(visitor.body).not.toContain('draft text')
  expect(visitor.headers['x-robots-tag']).toBeUndefined()
  expect(visitor.headers['cache-control']).toBe('public, max-age=0, must-revalidate')

  const enabled = await enable()
  expect(enabled.statusCode).toBe(303)
  expect(enabled.headers.location).toBe('/sites')
  const [cookie] = enabled.cookies as { name: string; httpOnly?: boolean; sameSite?: string; path?: string }[]
  expect(cookie).toMatchObject({ name: 'site_preview', httpOnly: true, path: '/', sameSite: 'Lax' })
  const editor = await page(cookieOf(enabled))
  expect(editor.statusCode).toBe(200)
  expect(editor.body).toContain(previewOf('GET', '/', 'draft text'))
  expect(editor.headers['x-robots-tag']).toBe('noindex')
  expect(editor.headers['cache-control']).toBe('private, no-store')

  // The next edit shows on the next request, with no webhook and no build.
  site.setDraft('edited again')
  expect((await page(cookieOf(enabled), '/sites?x=1')).body).toContain(
    previewOf('GET', '/sites', 'edited again'),
  )
  expect(buildCount(site)).toBe(before)
})

test('a wrong secret, a forged cookie or no cookie: the live site, and nothing of the preview', async () => {
  site.setDraft('secret draft')
  const wrong = await enable('nope')
  expect(wrong.statusCode).toBe(401)
  expect(wrong.cookies).toEqual([])
  for (const cookie of [
    undefined,
    'site_preview=on',
    'site_preview=on.forgedsignature',
    // Next's draft-mode cookie and Presentation's perspective cookie open nothing by themselves.
    '__prerender_bypass=anything; sanity-preview-perspective=drafts',
  ]) {
    const answer = await page(cookie)
    expect([cookie, answer.statusCode]).toEqual([cookie, 200])
    expect(answer.body).toContain('<h1>v1</h1>')
    expect(answer.body).not.toContain('secret draft')
    expect(answer.headers['x-robots-tag']).toBeUndefined()
  }
})

test('a closed session shows the live site again', async () => {
  site.setDraft('secret draft')
  const cookie = await session()
  expect((await page(cookie)).body).toContain('secret draft')
  await site.app.inject({ url: '/preview/disable', headers: { cookie } })
  const after = await page(cookie)
  expect(after.body).toContain('<h1>v1</h1>')
  expect(after.body).not.toContain('secret draft')
})

test('any method reaches the preview with a session, before its body is read; visitors get 405', async () => {
  const cookie = await session()
  for (const method of ['POST', 'PUT', 'DELETE'] as const) {
    const visitor = await site.app.inject({ method, url: '/sites', payload: { a: 1 } })
    expect([method, visitor.statusCode, visitor.headers.allow]).toEqual([method, 405, 'GET, HEAD'])
    const editor = await site.app.inject({ method, url: '/sites', headers: { cookie }, payload: { a: 1 } })
    expect([method, editor.statusCode]).toEqual([method, 200])
    expect(editor.body).toContain(previewOf(method, '/sites', 'v1'))
  }
  // A server action's form (multipart, which the publisher itself does not parse), and a
  // body over the publisher's own limit, are the preview server's to read.
  const action = await site.app.inject({
    method: 'POST',
    url: '/consultation',
    headers: { cookie, 'content-type': 'multipart/form-data; boundary=x', 'next-action': 'abc' },
    payload: `--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n${'b'.repeat(2 * 1024 * 1024)}\r\n--x--\r\n`,
  })
  expect(action.statusCode).toBe(200)
  expect(action.body).toContain(previewOf('POST', '/consultation', 'v1'))
  // The publisher's own routes stay its own.
  const contact = await site.app.inject({
    method: 'POST',
    url: '/api/contact',
    headers: { cookie, 'content-type': 'application/json' },
    payload: JSON.stringify({}),
  })
  expect(contact.body).not.toContain('Preview of')
})

test("/studio, with a session, is still the live build's; /studios is a page like any other", async () => {
  const cookie = await session()
  for (const url of ['/studio', '/studio/structure/review;review-a', '/studio?x=1']) {
    const answer = await page(cookie, url)
    expect([url, answer.statusCode]).toEqual([url, 200])
    expect(answer.body).toContain('<h1>Studio</h1>')
  }
  expect((await page(cookie, '/studios')).body).toContain(previewOf('GET', '/studios', 'v1'))
})

test('a /_next/static/ file the live build has is served from it; one it lacks, and other files, go to the preview', async () => {
  const cookie = await session()
  for (const url of ['/_next/static/chunks/app.js', '/_next/static/chunks/app.js?v=2']) {
    const live = await page(cookie, url)
    expect([url, live.statusCode]).toEqual([url, 200])
    expect(live.body).toContain('console.log')
    expect(live.headers['cache-control']).not.toBe('private, no-store')
  }
  const missing = await page(cookie, '/_next/static/chunks/preview-only.js')
  expect(missing.body).toContain(previewOf('GET', '/_next/static/chunks/preview-only.js', 'v1'))
  // Only hashed files are shared: a page or an unhashed file of the live build may differ.
  expect((await page(cookie, '/media/abc-10x10.svg')).body).toContain(
    previewOf('GET', '/media/abc-10x10.svg', 'v1'),
  )
  expect((await page(cookie, '/sites')).body).toContain(previewOf('GET', '/sites', 'v1'))
})

test('while the preview server starts, a session gets 503 with Retry-After; visitors and the Studio do not wait', async () => {
  let ready = false
  await restartWithPreviewServer((renderer) => (ready ? renderer : null))
  const cookie = await session()
  const waiting = await page(cookie, '/sites')
  expect(waiting.statusCode).toBe(503)
  expect(waiting.headers['retry-after']).toBe('15')
  expect(waiting.headers['cache-control']).toBe('private, no-store')
  expect(waiting.headers['x-robots-tag']).toBe('noindex')
  // The publisher's own answer runs nothing: not the live page's policy for this path.
  expect(waiting.headers['x-content-type-options']).toBe('nosniff')
  expect(waiting.headers['content-security-policy']).toMatch(
    /^default-src 'none'; style-src 'unsafe-inline';/,
  )
  expect(waiting.body).toBe('the preview is starting. Try again shortly.')
  expect((await site.app.inject({ method: 'POST', url: '/', headers: { cookie } })).statusCode).toBe(503)
  expect((await page(undefined, '/sites')).statusCode).toBe(200)
  expect((await page(cookie, '/studio')).body).toContain('<h1>Studio</h1>')
  expect((await page(cookie, '/_next/static/chunks/app.js')).statusCode).toBe(200)
  expect((await health()).preview).toBe('starting')

  ready = true
  expect((await page(cookie, '/sites')).body).toContain(previewOf('GET', '/sites', 'v1'))
  expect((await health()).preview).toBe('ready')
})

test('when the preview server could not start, a session gets 503 naming the class of why; visitors the live site', async () => {
  await restartWithPreviewServer(() => new PreviewDown('build-failed'))
  const cookie = await session()
  const failed = await page(cookie)
  expect(failed.statusCode).toBe(503)
  expect(failed.headers['retry-after']).toBe('15')
  expect(failed.headers['cache-control']).toBe('private, no-store')
  expect(failed.body).toBe('the preview could not be built. Try again shortly.')
  expect((await page()).body).toContain('<h1>v1</h1>')
  expect((await health()).preview).toEqual({ failed: 'build-failed' })
})

test("/healthz tells editors the preview server's state, and nobody else", async () => {
  expect((await health()).preview).toBe('ready')
  const editor = await site.app.inject({ url: '/healthz', headers: { cookie: await session() } })
  expect(editor.json().preview).toBe('ready')
  const anonymous = await site.app.inject({ url: '/healthz' })
  expect(anonymous.json()).not.toHaveProperty('preview')
  await site.close()
  site = await startFixture({ webhookSecret: SECRET })
  expect((await health()).preview).toBe('off')
})

test('/preview/enable only redirects within the site', async () => {
  for (const [redirect, location] of [
    ['/case-studies/osteopath-lancing?x=1#top', '/case-studies/osteopath-lancing?x=1#top'],
    ['//evil.example/x', '/'],
    ['/\\evil.example', '/'],
    ['https://evil.example/', '/'],
  ]) {
    const answer = await enable(PREVIEW, redirect)
    expect([redirect, answer.headers.location]).toEqual([redirect, location])
  }
})

describe("the perspective Presentation's switcher chooses", () => {
  const choose = (perspective: unknown, headers: Record<string, string> = {}) =>
    site.app.inject({
      method: 'POST',
      url: PREVIEW_PERSPECTIVE_PATH,
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify({ perspective }),
    })

  test('without an open session: 403, no cookie', async () => {
    for (const cookie of [undefined, 'site_preview=on.forged']) {
      const answer = await choose('rSpring', cookie ? { cookie } : {})
      expect([cookie, answer.statusCode, setCookies(answer)]).toEqual([cookie, 403, []])
    }
  })

  test('from another site, even with the session: 403, no cookie', async () => {
    const cookie = await session()
    for (const from of ['cross-site', 'same-site']) {
      const answer = await choose('rSpring', { cookie, 'sec-fetch-site': from })
      expect([from, answer.statusCode, setCookies(answer)]).toEqual([from, 403, []])
    }
  })

  test('what is not a perspective: 400, no cookie', async () => {
    const cookie = await session()
    for (const perspective of ['raw', 'not a perspective!', '', 'drafts,raw', 42, null, ['raw']]) {
      const answer = await choose(perspective, { cookie, 'sec-fetch-site': 'same-origin' })
      expect([perspective, answer.statusCode, setCookies(answer)]).toEqual([perspective, 400, []])
    }
  })

  test('a release, drafts or published: 204 and an HttpOnly cookie of the whole stack', async () => {
    const cookie = await session()
    for (const [perspective, value] of [
      ['rSpring', 'rSpring,drafts'],
      ['rSpring,drafts', 'rSpring,drafts'],
      [['rSummer', 'rSpring', 'drafts'], 'rSummer,rSpring,drafts'],
      ['drafts', 'drafts'],
      ['published', 'published'],
    ] as const) {
      const answer = await choose(perspective, { cookie, 'sec-fetch-site': 'same-origin' })
      expect(answer.statusCode).toBe(204)
      expect(answer.headers['cache-control']).toBe('private, no-store')
      expect(answer.cookies).toEqual([
        expect.objectContaining({
          name: 'sanity-preview-perspective',
          value,
          httpOnly: true,
          path: '/',
          sameSite: 'Lax',
          maxAge: 8 * 3600,
        }),
      ])
      expect(setCookies(answer)[0]).not.toMatch(/Secure|Partitioned/)
    }
  })

  test('over https the cookie is Secure, SameSite=None and Partitioned', async () => {
    await site.close()
    site = await startFixture({ webhookSecret: SECRET, previewSecret: PREVIEW, trustProxy: ['127.0.0.1'] })
    const cookie = await session()
    const answer = await choose('rSpring', { cookie, 'x-forwarded-proto': 'https' })
    expect(answer.statusCode).toBe(204)
    const [line] = setCookies(answer)
    // URL-encoded, as cookie values are; Next's cookies() reads it back as rSpring,drafts.
    expect(line).toMatch(/^sanity-preview-perspective=rSpring%2Cdrafts;/)
    expect(line).toMatch(/; HttpOnly/)
    expect(line).toMatch(/; Secure/)
    expect(line).toMatch(/; SameSite=None/)
    expect(line).toMatch(/; Partitioned/)
  })
})

test('/preview/disable clears the session and perspective cookies, and goes back to the live site', async () => {
  const answer = await site.app.inject({ url: '/preview/disable' })
  expect(answer.statusCode).toBe(303)
  expect(answer.headers.location).toBe('/')
  expect(answer.cookies).toEqual([
    expect.objectContaining({ name: 'site_preview', value: '' }),
    expect.objectContaining({ name: 'sanity-preview-perspective', value: '' }),
  ])
})

test('a publish rebuilds the live site only; the preview shows the drafts file all along', async () => {
  site.setContent('published text')
  site.setDraft('draft text')
  const before = buildCount(site)
  await deliver('review-a')
  expect(buildCount(site) - before).toBe(1)
  expect((await page()).body).toContain('<h1>published text</h1>')
  expect((await page(await session())).body).toContain(previewOf('GET', '/', 'draft text'))
})

test("a preview's contact form is answered and kept nowhere", async () => {
  const cookie = await session()
  const json = await site.app.inject({
    method: 'POST',
    url: '/preview/contact',
    headers: { 'content-type': 'application/json', cookie },
    payload: JSON.stringify({ name: 'Ann', email: 'ann@example.com', message: 'Hello there, a test.' }),
  })
  expect(json.json()).toEqual({ status: 'received', preview: true })
  const form = await site.app.inject({
    method: 'POST',
    url: '/preview/contact',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'name=Ann',
  })
  expect([form.statusCode, form.headers.location]).toEqual([303, '/#contact'])
  const { existsSync } = await import('node:fs')
  expect(existsSync(site.inboxFile)).toBe(false)
})

test("the secrets Presentation and the Studio's badge write start no build", async () => {
  const before = buildCount(site)
  for (const type of ['sanity.previewUrlSecret', 'sanity.previewUrlShareAccess']) {
    const answer = await deliverWebhook(site, SECRET, `drafts.${type}-1`, `${type}-key`, type)
    expect(answer.statusCode).toBe(202)
  }
  await site.publisher.idle()
  expect(buildCount(site)).toBe(before)
  expect(site.logs.filter((line) => line.event === 'build.skipped')).toHaveLength(2)
})

test('without a preview secret, a draft builds nothing, /preview/* does not exist and no cookie opens a preview', async () => {
  await site.close()
  site = await startFixture({ webhookSecret: SECRET })
  const before = buildCount(site)
  await deliver('drafts.review-a')
  expect(buildCount(site)).toBe(before)
  expect((await enable()).statusCode).toBe(404)
  const perspective = await site.app.inject({
    method: 'POST',
    url: PREVIEW_PERSPECTIVE_PATH,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ perspective: 'drafts' }),
  })
  expect(perspective.statusCode).toBe(405)
  expect((await page('site_preview=on')).body).toContain('<h1>v1</h1>')
})

describe("the Presentation tool's generated secret (@sanity/preview-url-secret)", () => {
  /** A secret as Presentation writes it into the dataset, updated `ageMs` ago. */
  const secretDocument = (secret: string, ageMs = 0) => ({
    _id: `drafts.sanity-preview-url-secret.${secret}`,
    _type: 'sanity.previewUrlSecret',
    _updatedAt: new Date(Date.now() - ageMs).toISOString(),
    secret,
    studioUrl: 'https://agency.sanity.studio',
  })
  let lake: StandIn
  beforeEach(async () => {
    lake = await startSanityStandIn([
      secretDocument('fresh-secret'),
      secretDocument('old-secret', 2 * 3600_000),
    ])
    await site.close()
    site = await startFixture({
      webhookSecret: SECRET,
      previewSecret: PREVIEW,
      presentation: await presentationClient({
        projectId: 'standin',
        dataset: 'production',
        apiVersion: '2025-02-19',
        token: 'viewer-token',
        apiHost: lake.url,
      }),
    })
    site.setDraft('draft for presentation')
  })
  afterEach(() => lake.close())

  const presentationEnable = (secret: string, pathname = '/case-studies?x=1') =>
    site.app.inject({
      url: `/preview/enable?sanity-preview-secret=${secret}&sanity-preview-pathname=${encodeURIComponent(pathname)}&sanity-preview-perspective=drafts`,
    })

  test('a fresh secret opens the preview at the pathname Presentation asked for', async () => {
    const answer = await presentationEnable('fresh-secret')
    expect(answer.statusCode).toBe(303)
    expect(answer.headers.location).toBe('/case-studies?x=1&sanity-preview-perspective=drafts')
    expect((await page(cookieOf(answer), answer.headers.location)).body).toContain(
      previewOf('GET', '/case-studies', 'draft for presentation'),
    )
    // It was checked against the Content Lake, with the token, over the raw perspective.
    const call = lake.calls.find((entry) => entry.path.includes('/data/query/production'))
    expect(call?.authorization).toBe('Bearer viewer-token')
    expect(call?.search.perspective).toBe('raw')
  })

  test('an unknown or expired secret gets 401 and no cookie', async () => {
    for (const secret of ['made-up', 'old-secret']) {
      const answer = await presentationEnable(secret)
      expect([secret, answer.statusCode, answer.cookies]).toEqual([secret, 401, []])
      expect(answer.json().error).toBe('wrong or expired Presentation secret')
    }
  })

  test('an off-site pathname still lands on the site, checked once resolved', async () => {
    for (const pathname of ['//evil.example/x', '/.//evil.example/x', '/a/..//evil.example/x']) {
      const answer = await presentationEnable('fresh-secret', pathname)
      expect(answer.statusCode).toBe(303)
      expect([pathname, answer.headers.location]).toEqual([pathname, expect.stringMatching(/^\/(?![/\\])/)])
    }
  })

  test('the Content Lake out of reach: 503, saying so', async () => {
    await lake.close()
    const answer = await presentationEnable('fresh-secret')
    expect(answer.statusCode).toBe(503)
    expect(answer.json().error).toMatch(/^could not check Presentation's secret with Sanity/)
    lake = await startSanityStandIn([])
  })
})

test("without a Content Lake project, Presentation's secret is refused, saying what is missing", async () => {
  const answer = await site.app.inject({
    url: '/preview/enable?sanity-preview-secret=anything&sanity-preview-pathname=/',
  })
  expect(answer.statusCode).toBe(401)
  expect(answer.json().error).toMatch(/SANITY_PROJECT_ID and SANITY_READ_TOKEN/)
})

test('/api/publisher tells the Studio whether preview is on', async () => {
  const ask = () => site.app.inject({ url: '/api/publisher' })
  expect((await ask()).json()).toEqual({ preview: true })
  await site.close()
  site = await startFixture({ webhookSecret: SECRET })
  expect((await ask()).json()).toEqual({ preview: false })
})

test('the addresses the Studio calls (studio/publisherApi.ts) are the ones the publisher answers', async () => {
  const info = await site.app.inject({ url: studioApi.PUBLISHER_INFO_PATH })
  expect(info.json()).toEqual({ preview: true })
  await deliver('review-a')
  const status = await site.app.inject({
    url: `${studioApi.PUBLISH_STATUS_PATH}/review-a`,
  })
  expect(status.json()).toMatchObject({ state: 'live' })
  const enabled = await site.app.inject({
    url: `${studioApi.PREVIEW_ENABLE_PATH}?secret=${PREVIEW}&redirect=/`,
  })
  expect(enabled.statusCode).toBe(303)
})

describe('over https', () => {
  beforeEach(async () => {
    await site.close()
    site = await startFixture({ webhookSecret: SECRET, previewSecret: PREVIEW, trustProxy: ['127.0.0.1'] })
  })
  const https = { 'x-forwarded-proto': 'https' }

  test('the session cookie is Secure and SameSite=None; in another site’s frame also Partitioned', async () => {
    const enableOverHttps = (headers: Record<string, string> = {}) =>
      site.app.inject({
        url: `/preview/enable?secret=${PREVIEW}&redirect=/`,
        headers: { ...https, ...headers },
      })
    const [topLevel] = setCookies(
      await enableOverHttps({ 'sec-fetch-dest': 'document', 'sec-fetch-site': 'none' }),
    )
    expect(topLevel).toMatch(/Secure/)
    expect(topLevel).toMatch(/SameSite=None/)
    expect(topLevel).not.toMatch(/Partitioned/)
    const [framed] = setCookies(
      await enableOverHttps({ 'sec-fetch-dest': 'iframe', 'sec-fetch-site': 'cross-site' }),
    )
    expect(framed).toMatch(/Partitioned/)
    // Leaving clears the session cookie of both kinds, and the perspective cookie.
    const cleared = setCookies(await site.app.inject({ url: '/preview/disable', headers: https }))
    const session = cleared.filter((line) => line.startsWith('site_preview=;'))
    expect(session).toHaveLength(2)
    expect(session.filter((line) => /Partitioned/.test(line))).toHaveLength(1)
    expect(cleared.filter((line) => line.startsWith('sanity-preview-perspective=;'))).not.toHaveLength(0)
  })

  // The perspective cookie is always Partitioned over https, and a partitioned cookie is only
  // cleared by a Set-Cookie that is Partitioned too: /preview/disable sends none for it yet
  // (server/preview/preview.ts clears it with a plain clearCookie). Marked failing until it does.
  test('leaving clears the partitioned perspective cookie too', async () => {
    const cleared = setCookies(await site.app.inject({ url: '/preview/disable', headers: https }))
    expect(
      cleared.filter(
        (line) =>
          line.startsWith('sanity-preview-perspective=;') &&
          /; Secure/.test(line) &&
          /; Partitioned/.test(line) &&
          /SameSite=None/.test(line),
      ),
    ).toHaveLength(1)
  })
})
