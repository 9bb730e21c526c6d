/**
 * @jest-environment node
 *
 * Editors' draft preview on the publisher (server/preview.ts, static.ts, publisher.ts),
 * with the fake build: a draft's webhook builds a preview only; the preview cookie shows
 * it, with noindex and no-store; visitors never see it; a publish rebuilds both.
 */
import { PREVIEW_ENABLE_PATH } from '@/lib/preview'
import { presentationClient, previewPageHeaders } from '@/server/preview'
import * as studioApi from '@/studio/publisherApi'
import {
  buildCount,
  deliverWebhook,
  operatorHeaders,
  startFixture,
  type Fixture,
} from './helpers/publisherFixture'
import { startSanityStandIn, type StandIn } from './helpers/sanityStandIn'

jest.setTimeout(60_000)
const SECRET = 'webhook-secret'
const PREVIEW = 'preview-secret-for-tests'
let site: Fixture
beforeEach(async () => {
  site = await startFixture({ webhookSecret: SECRET, previewSecret: PREVIEW })
  await site.publisher.idle()
})
afterEach(() => site.close())

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
const page = (cookie?: string) => site.app.inject({ url: '/', headers: cookie ? { cookie } : {} })

/** /healthz as the operator's scripts read it (the whole report). */
const health = async () =>
  (await site.app.inject({ url: '/healthz', headers: operatorHeaders(SECRET) })).json()

test('a draft builds the preview only; the cookie shows it, visitors keep the live site', async () => {
  const live = (await health()).live.id
  site.setDraft('draft text')
  const before = buildCount(site)
  await deliver('drafts.review-a')
  expect(buildCount(site) - before).toBe(1)
  const report = await health()
  expect(report.live.id).toBe(live)
  expect(report.preview.lastBuild.id).not.toBe(live)

  const visitor = await page()
  expect(visitor.body).toContain('<h1>v1</h1>')
  expect(visitor.headers['x-robots-tag']).toBeUndefined()
  expect(visitor.headers['cache-control']).toBe('public, max-age=0, must-revalidate')

  const enabled = await enable()
  expect(enabled.statusCode).toBe(303)
  expect(enabled.headers.location).toBe('/sites')
  const [cookie] = enabled.cookies as { name: string; httpOnly?: boolean; sameSite?: string; path?: string }[]
  expect(cookie).toMatchObject({ name: 'site_preview', httpOnly: true, path: '/', sameSite: 'Lax' })
  const editor = await page(cookieOf(enabled))
  expect(editor.body).toContain('<h1>draft text</h1>')
  expect(editor.headers['x-robots-tag']).toBe('noindex')
  expect(editor.headers['cache-control']).toBe('private, no-store')
})

test('a wrong secret, a forged cookie or no cookie: the live site, and nothing of the preview', async () => {
  site.setDraft('secret draft')
  await deliver('drafts.review-a')
  const wrong = await enable('nope')
  expect(wrong.statusCode).toBe(401)
  expect(wrong.cookies).toEqual([])
  for (const cookie of [undefined, 'site_preview=on', 'site_preview=on.forgedsignature']) {
    const answer = await page(cookie)
    expect(answer.body).toContain('<h1>v1</h1>')
    expect(answer.body).not.toContain('secret draft')
  }
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

test('/preview/disable clears the cookie and goes back to the live site', async () => {
  const answer = await site.app.inject({ url: '/preview/disable' })
  expect(answer.statusCode).toBe(303)
  expect(answer.headers.location).toBe('/')
  expect(answer.cookies).toEqual([expect.objectContaining({ name: 'site_preview', value: '' })])
})

test('a publish rebuilds the live site, then the preview after it', async () => {
  site.setContent('published text')
  site.setDraft('published text')
  const before = buildCount(site)
  await deliver('review-a')
  expect(buildCount(site) - before).toBe(2)
  expect((await page()).body).toContain('<h1>published text</h1>')
  expect((await page(cookieOf(await enable()))).body).toContain('<h1>published text</h1>')
})

test("a preview's contact form is answered and kept nowhere", async () => {
  const json = await site.app.inject({
    method: 'POST',
    url: '/preview/contact',
    headers: { 'content-type': 'application/json' },
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

test('without a preview secret, a draft builds nothing and /preview/enable does not exist', async () => {
  await site.close()
  site = await startFixture({ webhookSecret: SECRET })
  const before = buildCount(site)
  await deliver('drafts.review-a')
  expect(buildCount(site)).toBe(before)
  expect((await enable()).statusCode).toBe(404)
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
      presentation: presentationClient({
        projectId: 'standin',
        dataset: 'production',
        apiVersion: '2025-02-19',
        token: 'viewer-token',
        apiHost: lake.url,
      }),
    })
    site.setDraft('draft for presentation')
    await deliver('drafts.review-a')
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
    expect((await page(cookieOf(answer))).body).toContain('<h1>draft for presentation</h1>')
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
  expect(studioApi.PREVIEW_ENABLE_PATH).toBe(PREVIEW_ENABLE_PATH)
})

describe('previewPageHeaders', () => {
  const policy = "default-src 'self'; script-src 'self' 'sha256-x'; frame-ancestors 'none'"
  const page = { 'Cache-Control': 'public, max-age=0, must-revalidate', 'Content-Security-Policy': policy }

  test("the Studio may frame a preview page; the rest of the page's policy stands", () => {
    const headers = previewPageHeaders(page, ['https://agency.sanity.studio'])
    expect(headers).toEqual({
      'Cache-Control': 'private, no-store',
      'Content-Security-Policy':
        "default-src 'self'; script-src 'self' 'sha256-x'; frame-ancestors 'self' https://agency.sanity.studio",
      'X-Robots-Tag': 'noindex',
    })
    expect(page['Content-Security-Policy']).toBe(policy)
  })

  test('a page without a policy gets the preview headers only', () => {
    expect(previewPageHeaders({ 'Cache-Control': 'x' }, [])).toEqual({
      'Cache-Control': 'private, no-store',
      'X-Robots-Tag': 'noindex',
    })
  })

  test('a policy that lost its frame-ancestors directive fails loudly', () => {
    expect(() => previewPageHeaders({ 'Content-Security-Policy': "default-src 'self'" }, [])).toThrow(
      /no frame-ancestors directive/,
    )
  })
})

test('over https the cookie is Secure and SameSite=None; in another site’s frame also Partitioned', async () => {
  await site.close()
  site = await startFixture({ webhookSecret: SECRET, previewSecret: PREVIEW, trustProxy: true })
  const enableOverHttps = (headers: Record<string, string> = {}) =>
    site.app.inject({
      url: `/preview/enable?secret=${PREVIEW}&redirect=/`,
      headers: { 'x-forwarded-proto': 'https', ...headers },
    })
  const setCookie = (answer: { headers: Record<string, unknown> }) => String(answer.headers['set-cookie'])
  const topLevel = setCookie(
    await enableOverHttps({ 'sec-fetch-dest': 'document', 'sec-fetch-site': 'none' }),
  )
  expect(topLevel).toMatch(/Secure/)
  expect(topLevel).toMatch(/SameSite=None/)
  expect(topLevel).not.toMatch(/Partitioned/)
  const framed = setCookie(
    await enableOverHttps({ 'sec-fetch-dest': 'iframe', 'sec-fetch-site': 'cross-site' }),
  )
  expect(framed).toMatch(/Partitioned/)
  // Leaving clears both kinds.
  const left = await site.app.inject({ url: '/preview/disable', headers: { 'x-forwarded-proto': 'https' } })
  const cleared = ([] as string[]).concat(left.headers['set-cookie'] as string | string[])
  expect(cleared).toHaveLength(2)
  expect(cleared.filter((line) => /Partitioned/.test(line))).toHaveLength(1)
})
