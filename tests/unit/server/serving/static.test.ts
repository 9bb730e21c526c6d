/**
 * @jest-environment node
 */
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { headersFor, loadHeaderRules } from '@/server/serving/headers-file'
import { startFixture, type Fixture } from '../../helpers/publisherFixture'

let site: Fixture
beforeAll(async () => {
  site = await startFixture()
}, 30_000)
afterAll(() => site.close())

const get = (url: string, headers: Record<string, string> = {}) =>
  site.app.inject({ method: 'GET', url, headers })

test('clean URLs answer the page files; folders redirect to their slash', async () => {
  expect((await get('/')).body).toContain('<h1>v1</h1>')
  expect((await get('/sites')).body).toContain('Our Portfolio')
  expect((await get('/sites.html')).statusCode).toBe(200)
  const folder = await get('/booking')
  expect(folder.statusCode).toBe(301)
  expect(folder.headers.location).toBe('/booking/')
  expect((await get('/booking/')).body).toContain('Booking stand-in')
})

test("Studio's client-side routes are answered by the Studio page, with its headers", async () => {
  const deep = await get('/studio/structure/review;review-osteopath')
  expect(deep.statusCode).toBe(200)
  expect(deep.body).toContain('<h1>Studio</h1>')
  expect(deep.headers['content-security-policy']).toBe(
    (await get('/studio')).headers['content-security-policy'],
  )
  expect((await get('/studios')).statusCode).toBe(404)
})

test("a legacy case-study id redirects, permanently, to the slug's page, before its own small page", async () => {
  for (const url of [
    '/case-studies/Osteopath%20Lancing',
    '/case-studies/Osteopath Lancing',
    '/case-studies/%4Fsteopath%20Lancing',
  ]) {
    const response = await get(url)
    expect([url, response.statusCode, response.headers.location]).toEqual([
      url,
      301,
      '/case-studies/osteopath-lancing',
    ])
    // Revalidated, not cached for good: a later build may give the address to a page of its own.
    expect(response.headers['cache-control']).toBe('public, max-age=0, must-revalidate')
  }
  const head = await site.app.inject({ method: 'HEAD', url: '/case-studies/Osteopath%20Lancing' })
  expect([head.statusCode, head.headers.location]).toEqual([301, '/case-studies/osteopath-lancing'])
  // The query goes along; the page itself answers.
  expect((await get('/case-studies/Osteopath%20Lancing?utm_source=mail&x=1')).headers.location).toBe(
    '/case-studies/osteopath-lancing?utm_source=mail&x=1',
  )
  expect((await get('/case-studies/osteopath-lancing')).statusCode).toBe(200)
  // The small page at the address (for hosts that redirect nothing) is there, and loses.
  const stub = readFileSync(
    path.join((await site.store.liveDir())!, 'case-studies/Osteopath Lancing.html'),
    'utf8',
  )
  expect(stub).toContain('<meta http-equiv="refresh" content="0; url=/case-studies/osteopath-lancing">')
  // Another spelling is no address of it; the build's list of addresses is never served.
  expect((await get('/case-studies/osteopath%20lancing')).statusCode).toBe(404)
  expect((await get('/.redirects.json')).statusCode).toBe(404)
})

test('unknown paths get 404.html with status 404, revalidated, never cached for a year', async () => {
  for (const url of ['/nope', '/_next/static/chunks/missing.js', '/case-studies/unknown']) {
    const response = await get(url)
    expect(response.statusCode).toBe(404)
    expect(response.body).toContain('Oops! Page not found')
    expect(response.headers['cache-control']).toBe('public, max-age=0, must-revalidate')
  }
})

test('host files, markers, precompressed siblings and traversal are not served', async () => {
  for (const url of [
    '/_headers',
    '/_redirects',
    '/.build.json',
    '/.redirects.json',
    '/index.html.br',
    '/../package.json',
    '/%2e%2e/package.json',
  ])
    expect((await get(url)).statusCode).toBe(404)
  expect((await get('/%E0%A4%A')).statusCode).toBe(400) // malformed percent-encoding
})

test('brotli and gzip files made at build time are chosen by Accept-Encoding, with Vary', async () => {
  const br = await get('/', { 'accept-encoding': 'gzip, deflate, br' })
  expect(br.headers['content-encoding']).toBe('br')
  expect(br.headers.vary).toMatch(/accept-encoding/i)
  expect(br.headers['content-type']).toMatch(/^text\/html/)
  expect(brotliDecompressSync(br.rawPayload).toString()).toContain('<h1>v1</h1>')
  const gzip = await get('/', { 'accept-encoding': 'gzip' })
  expect(gzip.headers['content-encoding']).toBe('gzip')
  expect(gunzipSync(gzip.rawPayload).toString()).toContain('<h1>v1</h1>')
  const plain = await get('/')
  expect(plain.headers['content-encoding']).toBeUndefined()
  expect(Number(plain.headers['content-length'])).toBeGreaterThan(br.rawPayload.length * 3)
})

test('hashed assets are immutable for a year; pages revalidate with an ETag (304)', async () => {
  const asset = await get('/_next/static/chunks/app.js')
  expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable')
  expect((await get('/media/abc-10x10.svg')).headers['cache-control']).toBe(
    'public, max-age=31536000, immutable',
  )
  const page = await get('/sites')
  expect(page.headers['cache-control']).toBe('public, max-age=0, must-revalidate')
  expect(page.headers.etag).toBeTruthy()
  const again = await get('/sites', { 'if-none-match': String(page.headers.etag) })
  expect(again.statusCode).toBe(304)
  expect(again.body).toBe('')
})

test('HEAD answers the headers without a body; other methods on pages get 405', async () => {
  const head = await site.app.inject({ method: 'HEAD', url: '/sites' })
  expect(head.statusCode).toBe(200)
  expect(head.body).toBe('')
  expect(head.headers['content-type']).toMatch(/^text\/html/)
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH'] as const) {
    const response = await site.app.inject({ method, url: '/sites' })
    expect(response.statusCode).toBe(405)
    expect(response.headers.allow).toBe('GET, HEAD')
  }
})

test('every answer carries the security headers of _headers; pages their own CSP', async () => {
  const answers = [
    await get('/'),
    await get('/nope'),
    await site.app.inject({ method: 'POST', url: '/sites' }),
    await get('/healthz'),
    await site.app.inject({ method: 'POST', url: '/api/contact', payload: {} }),
  ]
  for (const response of answers) {
    expect(response.headers['strict-transport-security']).toMatch(/max-age=\d{8}/)
    expect(response.headers['x-content-type-options']).toBe('nosniff')
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
    expect(response.headers['permissions-policy']).toContain('camera=()')
  }
  const csp = String((await get('/')).headers['content-security-policy'])
  expect(csp).toContain("frame-ancestors 'none'")
  expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]{44}'/)
  expect(csp.match(/script-src[^;]*/)?.[0]).not.toContain('unsafe-inline')
  // The booking stand-in is framed by /consultation, so it alone allows framing by the site.
  expect(String((await get('/booking/')).headers['content-security-policy'])).toContain(
    "frame-ancestors 'self'",
  )
  expect(String((await get('/nope')).headers['content-security-policy'])).toContain("frame-ancestors 'none'")
})

/** The policy of every content image's answer (site-build/headers.ts `MEDIA_HEADERS`). */
const MEDIA_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox"

test('a content image is answered under a policy that runs nothing, and nosniff, however its address is spelt', async () => {
  for (const url of ['/media/abc-10x10.svg', '/%6Dedia/abc-10x10.svg', '/media/abc%2D10x10.svg?v=1']) {
    const answer = await get(url)
    expect([url, answer.statusCode, answer.headers['content-type']]).toEqual([url, 200, 'image/svg+xml'])
    expect(answer.headers['content-security-policy']).toBe(MEDIA_POLICY)
    expect(answer.headers['x-content-type-options']).toBe('nosniff')
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable')
  }
})

test('a content image of a build whose _headers predates that policy (one kept for rollback) gets it too', async () => {
  const old = await startFixture()
  try {
    const headersFile = `${await old.store.liveDir()}/_headers`
    const written = readFileSync(headersFile, 'utf8')
    writeFileSync(
      headersFile,
      written.replace(/^(\/media\/\*\n(?:  .*\n)*?)  Content-Security-Policy: .*\n/m, '$1'),
    )
    expect(headersFor(await loadHeaderRules(headersFile), '/media/abc-10x10.svg')).not.toHaveProperty(
      'Content-Security-Policy',
    )
    await old.restart() // a fresh server reads the build's _headers again
    const answer = await old.app.inject({ method: 'GET', url: '/media/abc-10x10.svg' })
    expect(answer.headers['content-security-policy']).toBe(MEDIA_POLICY)
    expect(answer.headers['x-content-type-options']).toBe('nosniff')
  } finally {
    await old.close()
  }
}, 30_000)
