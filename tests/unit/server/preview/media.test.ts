/**
 * @jest-environment node
 *
 * Content images in the preview process (server/preview/preview-media.ts), through the renderer
 * (server/preview/preview-renderer.ts) behind a real HTTP server, tried as an attacker with a
 * session would: `/preview-media/<assetId>` sends the local dataset's file of an asset by
 * its id only, with its bytes' type (a drawing cleaned, as the build writes it), and refuses
 * ids that are not one, paths, an asset the dataset lacks, a file that is not the one the id
 * names, and files over the limit; `/media/<file>` sends the build's copies as public/media/
 * holds them now; both under the policy of content images, which runs nothing.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { PreviewMedia, type PreviewMediaOptions } from '@/server/preview/preview-media'
import { PreviewRenderer } from '@/server/preview/preview-renderer'
import type { ContentSource } from '@/lib/content/source'

/** The policy of every content image's answer (site-build/headers.ts `MEDIA_HEADERS`). */
const MEDIA_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox"

let dir: string
let server: Server
let origin: string
/** Paths Next's stand-in was asked for. */
let rendered: string[]
/** Why requests were refused, for the log. */
let refusals: string[]

const sha1 = (bytes: Buffer | string) => createHash('sha1').update(bytes).digest('hex')
const assetDoc = (id: string, originalFilename: string, extra: Record<string, unknown> = {}) => ({
  _id: id,
  _type: 'sanity.imageAsset',
  originalFilename,
  sha1hash: id.split('-')[1],
  ...extra,
})

let png: Buffer
let pngId: string
const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="3"><script>alert(1)</script></svg>'
const svgId = `image-${sha1(svg)}-4x3-svg`
const secret = 'not an image: a file outside the images folder'
const secretId = `image-${sha1(secret)}-1x1-png`

/**
 * A local dataset in a temporary folder: a PNG and an SVG under images/, a file beside the
 * dataset that an asset document tries to reach, and asset documents good and bad.
 */
async function start(options: Partial<PreviewMediaOptions> = {}, kind: 'local' | 'sanity' = 'local') {
  dir = mkdtempSync(path.join(os.tmpdir(), 'preview-media-'))
  png = await sharp({ create: { width: 3, height: 2, channels: 3, background: '#c0ffee' } })
    .png()
    .toBuffer()
  pngId = `image-${sha1(png)}-3x2-png`
  mkdirSync(path.join(dir, 'images'))
  mkdirSync(path.join(dir, 'public', 'media'), { recursive: true })
  writeFileSync(path.join(dir, 'images', 'photo.png'), png)
  writeFileSync(path.join(dir, 'images', 'drawing.svg'), svg)
  writeFileSync(path.join(dir, 'secret.png'), secret)
  const changed = Buffer.from('another photo, saved over the file')
  const changedId = `image-${sha1('the photo the asset was made from')}-1x1-png`
  writeFileSync(path.join(dir, 'images', 'changed.png'), changed)
  const documents = [
    assetDoc(pngId, 'photo.png'),
    assetDoc(svgId, 'drawing.svg'),
    assetDoc(secretId, '../secret.png'),
    assetDoc(changedId, 'changed.png'),
    assetDoc(`image-${sha1('nothing')}-1x1-png`, 'missing.png'),
    assetDoc(`image-${sha1(png)}-3x2-jpg`, 'photo.png', { sha1hash: 'f'.repeat(40) }),
  ]
  const file = path.join(dir, 'dataset.ndjson')
  writeFileSync(file, documents.map((doc) => JSON.stringify(doc)).join('\n') + '\n')
  const source: ContentSource =
    kind === 'local' ? { kind, file } : { kind, projectId: 'p', dataset: 'd', apiVersion: 'x' }
  rendered = []
  refusals = []
  const renderer = new PreviewRenderer({
    handler: async (req, res) => {
      rendered.push(req.url ?? '')
      res.end('a page')
    },
    modeId: 'a'.repeat(32),
    studioOrigins: [],
    settings: async () => ({ bookingWidgetUrl: '/', contactWebhookUrl: '/' }),
    onRunaway: () => {},
    onError: () => {},
    media: new PreviewMedia({
      source,
      publicDir: path.join(dir, 'public'),
      onError: (_path, error) => refusals.push((error as Error).message),
      ...options,
    }),
  })
  server = createServer((req, res) => void renderer.handle(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { changedId }
}

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve))
  rmSync(dir, { recursive: true, force: true })
})

/** A request with its path sent as written (fetch would resolve dot segments first). */
function get(pathname: string, method = 'GET') {
  return new Promise<Response>((resolve, reject) => {
    const sent = request(`${origin}${pathname}`, { method, path: pathname }, (answer) => {
      const chunks: Buffer[] = []
      answer.on('data', (chunk: Buffer) => chunks.push(chunk))
      answer.on('end', () => {
        const headers = new Headers()
        for (const [name, value] of Object.entries(answer.headers))
          if (typeof value === 'string') headers.set(name, value)
        const body = method === 'HEAD' ? null : Buffer.concat(chunks)
        resolve(new Response(body, { status: answer.statusCode, headers }))
      })
    })
    sent.on('error', reject)
    sent.end()
  })
}

describe('/preview-media/<assetId>', () => {
  test("a draft's new image: the dataset's file, its bytes and type, under the preview's headers", async () => {
    await start()
    const answer = await get(`/preview-media/${pngId}`)
    expect(answer.status).toBe(200)
    expect(Buffer.from(await answer.arrayBuffer())).toEqual(png)
    expect(answer.headers.get('content-type')).toBe('image/png')
    expect(answer.headers.get('content-length')).toBe(String(png.length))
    expect(answer.headers.get('cache-control')).toBe('private, no-store')
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
    expect(rendered).toEqual([])
    const head = await get(`/preview-media/${pngId}`, 'HEAD')
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([
      200,
      String(png.length),
      '',
    ])
  })

  test('a drawing is sent cleaned, as the build will write it, under a policy that runs nothing even so', async () => {
    await start()
    const answer = await get(`/preview-media/${svgId}`)
    const cleaned = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="3"/>\n'
    expect([answer.status, answer.headers.get('content-type'), await answer.text()]).toEqual([
      200,
      'image/svg+xml',
      cleaned,
    ])
    expect(answer.headers.get('content-length')).toBe(String(cleaned.length))
    expect(answer.headers.get('content-security-policy')).toBe(MEDIA_POLICY)
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
  }, 30_000) // the first drawing loads jsdom: seconds on a busy 2-core machine

  test('a drawing the cleaning refuses is not sent; the log names its asset', async () => {
    await start()
    const broken = '<svg xmlns="http://www.w3.org/2000/svg"><script>'
    const brokenId = `image-${sha1(broken)}-4x3-svg`
    writeFileSync(path.join(dir, 'images', 'broken.svg'), broken)
    const file = path.join(dir, 'dataset.ndjson')
    writeFileSync(file, `${readFileSync(file, 'utf8')}${JSON.stringify(assetDoc(brokenId, 'broken.svg'))}\n`)
    expect((await get(`/preview-media/${brokenId}`)).status).toBe(404)
    expect(refusals).toEqual([
      `Invalid content: document "${brokenId}": the SVG is not well-formed XML (1:48: unclosed tag: script)`,
    ])
  })

  test.each([
    '/preview-media/',
    '/preview-media/image-x',
    '/preview-media/photo.png',
    '/preview-media/..%2Fsecret.png',
    '/preview-media/%2e%2e/%2e%2e/dataset.ndjson',
    '/preview-media/..%2F..%2F..%2Fetc%2Fpasswd',
    '/preview-media/image-abc-1x1-png/../../dataset.ndjson',
    '/preview-media/IMAGE-abc-1x1-png',
    '/preview-media/image-abc-1x1-png%00.png',
    '/preview-media/image-abc-1x1-png.png',
    '/preview-media/%20image-abc-1x1-png',
  ])('%s is not an asset id: 404, nothing read, nothing rendered', async (pathname) => {
    await start()
    const answer = await get(pathname)
    expect([answer.status, await answer.text()]).toEqual([404, 'Not found'])
    expect(rendered).toEqual([])
    expect(refusals.join('\n')).toMatch(/is not a Sanity image asset id/)
  })

  test('an asset the dataset does not have, or of a kind the preview does not send: 404', async () => {
    await start()
    for (const id of [`image-${'a'.repeat(40)}-3x2-png`, `image-${sha1(png)}-3x2-pdf`]) {
      const answer = await get(`/preview-media/${id}`)
      expect([answer.status, await answer.text()]).toEqual([404, 'Not found'])
    }
    expect(refusals).toEqual([
      expect.stringMatching(/has no asset/),
      expect.stringMatching(/not a kind of image/),
    ])
  })

  test('a document naming a path outside images/, a missing file, a file that is not the one the id names: 404', async () => {
    const { changedId } = await start()
    for (const id of [
      secretId,
      `image-${sha1('nothing')}-1x1-png`,
      changedId,
      `image-${sha1(png)}-3x2-jpg`,
    ]) {
      const answer = await get(`/preview-media/${id}`)
      expect([id, answer.status, await answer.text()]).toEqual([id, 404, 'Not found'])
    }
    expect(refusals).toEqual([
      expect.stringMatching(/originalFilename.*plain file name/),
      expect.stringMatching(/no such file/),
      expect.stringMatching(/sha1hash.*has changed/),
      expect.stringMatching(/sha1hash.*not the hash its _id names/),
    ])
    // Nothing of the secret reached the answer, nor its path.
    expect(refusals.join('\n')).not.toContain(secret)
  })

  test('a file over the limit is not sent; the log says why', async () => {
    await start({ maxBytes: 10 })
    const answer = await get(`/preview-media/${pngId}`)
    expect(answer.status).toBe(404)
    expect(refusals).toEqual([expect.stringMatching(/more than the 10 the preview sends/)])
  })

  test('only GET and HEAD', async () => {
    await start()
    const answer = await get(`/preview-media/${pngId}`, 'POST')
    expect([answer.status, answer.headers.get('allow')]).toEqual([405, 'GET, HEAD'])
  })

  test('with the Content Lake there is nothing to send: its images come from its CDN', async () => {
    await start({}, 'sanity')
    expect((await get(`/preview-media/${pngId}`)).status).toBe(404)
  })
})

describe('/media/<file>', () => {
  test('a copy the build wrote after the process started is sent; anything else is 404, never rendered', async () => {
    await start()
    const name = `${sha1(png)}-3x2-480w.webp`
    writeFileSync(path.join(dir, 'public', 'media', name), png)
    const answer = await get(`/media/${name}`)
    expect([answer.status, answer.headers.get('content-type')]).toEqual([200, 'image/webp'])
    expect(Buffer.from(await answer.arrayBuffer())).toEqual(png)
    expect(answer.headers.get('content-security-policy')).toBe(MEDIA_POLICY)
    for (const pathname of [
      `/media/${sha1('x')}-3x2.png`,
      '/media/..%2F..%2Fdataset.ndjson',
      '/media/%2e%2e/secret.png',
      '/media/secret.png',
      '/media/',
    ])
      expect([pathname, (await get(pathname)).status]).toEqual([pathname, 404])
    expect(rendered).toEqual([])
  })

  test('every other path is rendered by Next', async () => {
    await start()
    expect(await (await get('/sites')).text()).toBe('a page')
    expect(await (await get('/media')).text()).toBe('a page')
    expect(rendered).toEqual(['/sites', '/media'])
  })
})
