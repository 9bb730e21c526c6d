/**
 * @jest-environment node
 *
 * A preview page that fails to render names the drafts it read (server/preview/preview-render-failure.ts):
 * the renderer (server/preview/preview-renderer.ts) runs each render recording the drafts its
 * queries return (lib/content/drafts-read.ts), and a 500 answer, Next's error page or its
 * own, becomes a notice naming them, for the editor who can fix or discard them. A stand-in
 * of Next's handler reads real content (a local dataset through the drafts perspective)
 * and fails the way Next answers a failed render.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
// Next's own compression middleware, which wraps the response of every page it answers.
import compression from 'next/dist/compiled/compression'
import { getHomePage, getSiteSettings } from '@/lib/content'
import type { ContentSource, StoredDocument } from '@/lib/content/source'
import { failedRenderNotice } from '@/server/preview/preview-render-failure'
import { PreviewRenderer, type NextHandler } from '@/server/preview/preview-renderer'
import { seedDocuments, writeDataset } from '../../helpers/dataset'

const seed = seedDocuments()
const settings = seed.find((doc) => doc._id === 'siteSettings')!
const review = seed.find((doc) => doc._type === 'review' && doc.placement !== 'strip')!
const site = seed.find((doc) => doc._type === 'portfolioSite')!

const source: ContentSource = {
  ...writeDataset([
    ...seed,
    { ...settings, _id: 'drafts.siteSettings', brandName: 'Draft Brand' },
    { ...review, _id: `drafts.${review._id}`, name: 'Drafted Name' },
    // Not read by the render below: not named.
    { ...site, _id: `drafts.${site._id}`, title: 'A drafted site' },
  ] as StoredDocument[]),
  perspective: 'drafts',
  preview: true,
}

/** What Next writes when a render fails: its own error page, status 500. */
const NEXT_ERROR_PAGE = '<!DOCTYPE html><html><body>Internal Server Error (Next)</body></html>'

/** A stand-in of Next's handler: reads settings (and the home page), then answers as `answer` does. */
const rendering =
  (answer: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>): NextHandler =>
  async (req, res) => {
    await getSiteSettings(source)
    if (req.url !== '/settings-only') await getHomePage(source)
    await answer(req, res)
  }

async function serve(handler: NextHandler) {
  const renderer = new PreviewRenderer({
    handler,
    modeId: 'a'.repeat(32),
    studioOrigins: [],
    settings: async () => ({ bookingWidgetUrl: '/', contactWebhookUrl: '/', bookingScriptUrl: '/' }),
    onRunaway: () => {},
    onError: () => {},
  })
  const server: Server = createServer((req, res) => void renderer.handle(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { origin, close: () => new Promise((resolve) => server.close(resolve)) }
}

let served: Awaited<ReturnType<typeof serve>> | undefined
afterEach(async () => {
  await served?.close()
  served = undefined
})

/** Asks for a path; the answer's status, type and body (fetch decodes a compressed one). */
async function ask(path: string, headers: Record<string, string> = {}) {
  const answer = await fetch(`${served!.origin}${path}`, { headers })
  return { status: answer.status, type: answer.headers.get('content-type'), text: await answer.text() }
}

describe('a 500 answer names the drafts the render read', () => {
  test.each([
    [
      'Next ends its error page at once',
      (_req: IncomingMessage, res: ServerResponse) => {
        res.statusCode = 500
        res.setHeader('Content-Type', 'text/html; charset=utf-8')
        res.end(NEXT_ERROR_PAGE)
      },
    ],
    [
      'Next streams it (headers flushed, then chunks)',
      (_req: IncomingMessage, res: ServerResponse) => {
        res.statusCode = 500
        res.setHeader('Content-Type', 'text/html; charset=utf-8')
        res.flushHeaders()
        res.write(NEXT_ERROR_PAGE.slice(0, 20))
        res.write(NEXT_ERROR_PAGE.slice(20))
        res.end()
      },
    ],
    [
      'Next compresses it (its compression middleware, the editor accepting gzip)',
      async (req: IncomingMessage, res: ServerResponse) => {
        compression()(req, res, () => {})
        res.statusCode = 500
        res.setHeader('Content-Type', 'text/html; charset=utf-8')
        // Past the middleware's threshold (1 kB): it compresses.
        res.write(NEXT_ERROR_PAGE.replace('</body>', `${' '.repeat(5000)}</body>`))
        res.end()
      },
    ],
    [
      'the handler throws (the renderer answers)',
      () => {
        throw new Error('boom')
      },
    ],
  ])('%s', async (_, answer) => {
    served = await serve(rendering(answer))
    const { status, type, text } = await ask('/sites', { 'accept-encoding': 'gzip' })
    expect(status).toBe(500)
    expect(type).toBe('text/html; charset=utf-8')
    expect(text).not.toContain('Internal Server Error (Next)')
    expect(text).toContain('The preview could not render this page')
    expect(text).toContain('Rendering /sites, it read these drafts:')
    expect(text).toContain('“Draft Brand” (drafts.siteSettings)')
    expect(text).toContain(`“Drafted Name” (drafts.${review._id})`)
    // What it did not read is not named.
    expect(text).not.toContain(`drafts.${site._id}`)
  })

  test('each render names its own reads', async () => {
    served = await serve(
      rendering((_req, res) => {
        res.statusCode = 500
        res.end(NEXT_ERROR_PAGE)
      }),
    )
    const [settingsOnly, home] = await Promise.all([ask('/settings-only'), ask('/')])
    expect(settingsOnly.text).toContain('this draft: “Draft Brand” (drafts.siteSettings)')
    expect(settingsOnly.text).not.toContain('Drafted Name')
    expect(home.text).toContain('Drafted Name')
  })
})

describe('every other answer passes untouched', () => {
  test.each([
    [200, 'the page'],
    [404, 'not found'],
    [503, 'busy'],
  ])('%i', async (status, body) => {
    served = await serve(
      rendering((_req, res) => {
        res.writeHead(status, { 'Content-Type': 'text/plain' })
        res.end(body)
      }),
    )
    expect(await ask('/')).toEqual({ status, type: 'text/plain', text: body })
  })

  test('a page compressed by Next reaches the editor compressed, whole', async () => {
    served = await serve(
      rendering(async (req, res) => {
        compression()(req, res, () => {})
        res.setHeader('Content-Type', 'text/html')
        res.end('x'.repeat(5000))
      }),
    )
    const answer = await fetch(`${served.origin}/`, { headers: { 'accept-encoding': 'gzip' } })
    expect(answer.headers.get('content-encoding')).toBe('gzip')
    // fetch decodes it: the whole page arrived.
    expect(await answer.text()).toBe('x'.repeat(5000))
  })
})

describe('failedRenderNotice', () => {
  test('no draft read: it says so', () => {
    expect(failedRenderNotice('/x', [])[1]).toMatch(/^Rendering \/x, it read no draft/)
  })

  test('ten drafts by name at most, then how many more', () => {
    const drafts = Array.from({ length: 13 }, (_, i) => ({ storedId: `drafts.d${i}`, title: `D${i}` }))
    const [, text] = failedRenderNotice('/', drafts)
    expect(text).toContain('“D9” (drafts.d9), and 3 more.')
    expect(text).not.toContain('D10')
  })
})
