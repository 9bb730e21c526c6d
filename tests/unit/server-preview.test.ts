/**
 * @jest-environment node
 *
 * Editors' draft preview on the publisher (server/preview.ts, static.ts, publisher.ts),
 * with the fake build: a draft's webhook builds a preview only; the preview cookie shows
 * it, with noindex and no-store; visitors never see it; a publish rebuilds both.
 */
import { buildCount, deliverWebhook, startFixture, type Fixture } from './helpers/publisherFixture'

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

test('a draft builds the preview only; the cookie shows it, visitors keep the live site', async () => {
  const live = (await site.app.inject({ url: '/healthz' })).json().live.id
  site.setDraft('draft text')
  const before = buildCount(site)
  await deliver('drafts.review-a')
  expect(buildCount(site) - before).toBe(1)
  const health = (await site.app.inject({ url: '/healthz' })).json()
  expect(health.live.id).toBe(live)
  expect(health.preview.lastBuild.id).not.toBe(live)

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

test('without a preview secret, a draft builds nothing and /preview/enable does not exist', async () => {
  await site.close()
  site = await startFixture({ webhookSecret: SECRET })
  const before = buildCount(site)
  await deliver('drafts.review-a')
  expect(buildCount(site)).toBe(before)
  expect((await enable()).statusCode).toBe(404)
})
