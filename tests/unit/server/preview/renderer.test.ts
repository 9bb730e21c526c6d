/**
 * @jest-environment node
 *
 * How the preview process answers one request (server/preview/preview-renderer.ts), with a
 * stand-in of Next's handler behind a real HTTP server: the draft-mode cookie only it can
 * set, a preview page's Content-Security-Policy naming only the hosts the published
 * settings name, and the limits that keep one heavy draft, or one editor's burst, from
 * taking the process: renders at a time, a queue and a share of it per session, sessions
 * served in turn, a time limit that answers the editor, a hard limit that ends the process.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import {
  PreviewRenderer,
  previewContentSecurityPolicy,
  renderContext,
  SESSION_HEADER,
  withDraftModeCookie,
  withIndexFile,
  withoutCookie,
  type NextHandler,
  type PreviewRendererOptions,
} from '@/server/preview/preview-renderer'
import type { IntegrationSettings } from '@/site-build/headers'

const MODE_ID = 'a'.repeat(32)

describe('withDraftModeCookie', () => {
  /** The cookies of a Cookie header, as [name, value] pairs in order. */
  const pairs = (header: string) =>
    header.split('; ').map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)])

  test("a request without cookies gets Next's draft-mode cookie only", () => {
    expect(withDraftModeCookie(undefined, MODE_ID)).toBe(`__prerender_bypass=${MODE_ID}`)
    expect(withDraftModeCookie('', MODE_ID)).toBe(`__prerender_bypass=${MODE_ID}`)
  })

  test("the request's own cookies are kept, in order, with the real draft-mode cookie after them", () => {
    expect(withDraftModeCookie('site_preview=s%3Aabc.sig; sanity-preview-perspective=drafts', MODE_ID)).toBe(
      `site_preview=s%3Aabc.sig; sanity-preview-perspective=drafts; __prerender_bypass=${MODE_ID}`,
    )
  })

  test("a visitor's own __prerender_bypass never reaches Next, however it is written", () => {
    const header = withDraftModeCookie(
      '__prerender_bypass=forged;a=1;  __prerender_bypass=again ;; b=2; __prerender_bypass=',
      MODE_ID,
    )
    expect(pairs(header)).toEqual([
      ['a', '1'],
      ['b', '2'],
      ['__prerender_bypass', MODE_ID],
    ])
  })

  test('a cookie whose name only starts like it is not it, and is kept', () => {
    expect(pairs(withDraftModeCookie('__prerender_bypass_x=1', MODE_ID))).toEqual([
      ['__prerender_bypass_x', '1'],
      ['__prerender_bypass', MODE_ID],
    ])
  })
})

describe('withoutCookie', () => {
  test('drops every copy of one cookie and keeps the others in order', () => {
    expect(withoutCookie('a=1; site_preview=s; b=2;site_preview=t', 'site_preview')).toBe('a=1; b=2')
    expect(withoutCookie(undefined, 'x')).toBe('')
  })
})

describe('withIndexFile', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'preview-public-'))
    mkdirSync(path.join(dir, 'booking'))
    writeFileSync(path.join(dir, 'booking', 'index.html'), '<p>Booking</p>')
    mkdirSync(path.join(dir, 'empty'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  test('a folder of public/ with an index.html answers with it, the query kept (the booking stand-in)', () => {
    expect(withIndexFile('/booking/', dir)).toBe('/booking/index.html')
    expect(withIndexFile('/booking', dir)).toBe('/booking/index.html')
    expect(withIndexFile('/booking/?date=2026-12-01', dir)).toBe('/booking/index.html?date=2026-12-01')
  })

  test('anything else is left as it was: pages, folders without one, paths that climb out', () => {
    for (const url of ['/', '/sites', '/empty/', '/nope/', '/booking/../booking/', '/%2e%2e/', '/%E0%A4%A'])
      expect([url, withIndexFile(url, dir)]).toEqual([url, url])
  })
})

const STUDIOS = ['https://agency.sanity.studio', 'https://studio.example.com']
const SETTINGS: IntegrationSettings = {
  bookingWidgetUrl: 'https://cal.example.com/agency',
  bookingScriptUrl: 'https://embed.cal.example.com/embed.js',
  contactWebhookUrl: '/preview/contact',
}

/** A policy's directives by name. */
const directives = (policy: string) =>
  new Map(
    policy.split(';').map((directive) => {
      const [name, ...values] = directive.trim().split(/\s+/)
      return [name!, values]
    }),
  )

describe('previewContentSecurityPolicy', () => {
  test("scripts from this site with this response's nonce, and the booking script's host; nothing dynamic", () => {
    const policy = directives(previewContentSecurityPolicy('bm9uY2U+/x==', SETTINGS, STUDIOS))
    expect(policy.get('script-src')).toEqual([
      "'self'",
      "'nonce-bm9uY2U+/x=='",
      'https://embed.cal.example.com',
    ])
    expect(policy.get('frame-src')).toEqual(["'self'", 'https://cal.example.com'])
    expect(policy.get('connect-src')).toEqual(["'self'"])
    expect(policy.get('form-action')).toEqual(["'self'"])
    expect(policy.get('img-src')).toEqual(["'self'", 'data:'])
    expect(policy.get('default-src')).toEqual(["'self'"])
    expect(policy.get('object-src')).toEqual(["'none'"])
    expect(policy.get('base-uri')).toEqual(["'none'"])
    const text = previewContentSecurityPolicy('bm9uY2U+/x==', SETTINGS, STUDIOS)
    expect(text).not.toMatch(/strict-dynamic|unsafe-eval|https:(\s|;|$)|\*/)
    for (const [name, values] of policy)
      if (name !== 'style-src')
        expect([name, values]).toEqual([name, expect.not.arrayContaining(["'unsafe-inline'"])])
  })

  test('this site and the Studio origins may frame a preview (Presentation), nobody else', () => {
    expect(directives(previewContentSecurityPolicy('n', SETTINGS, STUDIOS)).get('frame-ancestors')).toEqual([
      "'self'",
      ...STUDIOS,
    ])
    expect(directives(previewContentSecurityPolicy('n', SETTINGS, [])).get('frame-ancestors')).toEqual([
      "'self'",
    ])
  })

  test("images from this site, and from Sanity's CDN only when the content source's images are there", () => {
    expect(directives(previewContentSecurityPolicy('n', SETTINGS, [])).get('img-src')).toEqual([
      "'self'",
      'data:',
    ])
    const lake = directives(previewContentSecurityPolicy('n', SETTINGS, [], ['https://cdn.sanity.io']))
    expect(lake.get('img-src')).toEqual(["'self'", 'data:', 'https://cdn.sanity.io'])
    expect(lake.get('connect-src')).toEqual(["'self'"])
    expect(
      directives(previewContentSecurityPolicy('n', null, [], ['https://cdn.sanity.io'])).get('img-src'),
    ).toEqual(["'self'", 'data:', 'https://cdn.sanity.io'])
  })

  test('settings that could not be read allow no other host', () => {
    const policy = directives(previewContentSecurityPolicy('n', null, []))
    for (const name of ['script-src', 'frame-src', 'connect-src', 'form-action'])
      expect(policy.get(name)!.filter((value) => value.includes('//'))).toEqual([])
  })

  test.each(['data:text/javascript,alert(1)', 'javascript:alert(1)', 'http://cal.example.com/x.js'])(
    'a script URL that is not https (%s) is refused, never allowed',
    (url) => {
      expect(() => previewContentSecurityPolicy('n', { ...SETTINGS, bookingScriptUrl: url }, [])).toThrow(
        /Only https origins/,
      )
    },
  )
})

/** A renderer behind a real HTTP server on a free port. */
async function serve(handler: NextHandler, options: Partial<PreviewRendererOptions> = {}) {
  const events: { kind: string; path: string; detail?: unknown }[] = []
  const renderer = new PreviewRenderer({
    handler,
    modeId: MODE_ID,
    studioOrigins: [],
    settings: async () => SETTINGS,
    onRunaway: (path) => events.push({ kind: 'runaway', path }),
    onError: (path, error) => events.push({ kind: 'error', path, detail: (error as Error).message }),
    ...options,
  })
  const server: Server = createServer((req, res) => void renderer.handle(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { renderer, events, origin, close: () => new Promise((resolve) => server.close(resolve)) }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A handler that answers after `ms`, naming the request's path and cookie. */
const slow =
  (ms: number): NextHandler =>
  async (req: IncomingMessage, res: ServerResponse) => {
    await sleep(ms)
    res.writeHead(200, { 'Content-Type': 'text/plain' })
    res.end(`${req.url} ${req.headers.cookie}`)
  }

describe('PreviewRenderer', () => {
  let site: Awaited<ReturnType<typeof serve>> | undefined
  afterEach(async () => {
    await site?.close()
    site = undefined
  })

  test("draft mode on, the nonce in the request's and the answer's policy, the preview's headers", async () => {
    let seen: IncomingMessage | undefined
    site = await serve(async (req, res) => {
      seen = req
      res.end('page')
    })
    const answer = await fetch(`${site.origin}/sites`, {
      headers: { cookie: '__prerender_bypass=forged; a=1' },
    })
    expect(await answer.text()).toBe('page')
    expect(seen!.headers.cookie).toBe(`a=1; __prerender_bypass=${MODE_ID}`)
    const policy = answer.headers.get('content-security-policy')!
    expect(seen!.headers['content-security-policy']).toBe(policy)
    expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}' https:\/\/embed\.cal\.example\.com;/)
    expect(answer.headers.get('cache-control')).toBe('private, no-store')
    expect(answer.headers.get('x-robots-tag')).toBe('noindex')
    const again = await fetch(`${site.origin}/sites`)
    expect(again.headers.get('content-security-policy')).not.toBe(policy)
  })

  test('a script or frame host only a draft names is not allowed: the published settings name them', async () => {
    const asked: unknown[] = []
    site = await serve(
      async (_req, res) => {
        res.end('page')
      },
      {
        settings: async (perspective) => {
          asked.push(perspective)
          return perspective === 'published'
            ? SETTINGS
            : {
                ...SETTINGS,
                bookingWidgetUrl: 'https://new-booking.example.com/cal',
                bookingScriptUrl: 'https://evil.example/x.js',
              }
        },
      },
    )
    const answer = await fetch(`${site.origin}/consultation`, {
      headers: { cookie: 'sanity-preview-perspective=drafts' },
    })
    const policy = directives(answer.headers.get('content-security-policy')!)
    expect(policy.get('script-src')).toContain('https://embed.cal.example.com')
    expect(policy.get('script-src')).not.toContain('https://evil.example')
    expect(policy.get('frame-src')).toEqual(["'self'", 'https://cal.example.com'])
    expect(asked).toEqual(['published'])
  })

  test("Next's cache verdict is not passed on: every preview answer is rendered for its request", async () => {
    site = await serve(async (_req, res) => {
      res.setHeader('X-Nextjs-Cache', 'HIT')
      res.setHeader('X-Powered-Elsewhere', 'kept')
      res.end('page')
    })
    const answer = await fetch(`${site.origin}/sites`)
    expect(answer.headers.get('x-nextjs-cache')).toBeNull()
    expect(answer.headers.get('x-powered-elsewhere')).toBe('kept')
  })

  test('settings that cannot be read: the page renders under a policy without other hosts, and it is logged', async () => {
    site = await serve(
      async (_req, res) => {
        res.end('page')
      },
      {
        settings: async () => Promise.reject(new Error('siteSettings: broken')),
      },
    )
    const answer = await fetch(`${site.origin}/consultation`)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-security-policy')).not.toContain('cal.example.com')
    expect(site.events).toEqual([{ kind: 'error', path: '/consultation', detail: 'siteSettings: broken' }])
  })

  test('a render that throws is a 500 page for the editor and an error for the log, naming the path', async () => {
    site = await serve(async () => {
      throw new Error('boom')
    })
    const answer = await fetch(`${site.origin}/case-studies/x?y=1`)
    expect(answer.status).toBe(500)
    expect(await answer.text()).toContain('The preview could not render this page')
    expect(site.events).toEqual([{ kind: 'error', path: '/case-studies/x', detail: 'boom' }])
  })

  test('what a render logs knows its page', async () => {
    const paths: (string | undefined)[] = []
    site = await serve(async (_req, res) => {
      await sleep(5)
      paths.push(renderContext.getStore()?.path)
      res.end()
    })
    await Promise.all(['/a', '/b', '/c'].map((path) => fetch(`${site!.origin}${path}`)))
    expect(paths.sort()).toEqual(['/a', '/b', '/c'])
  })

  test('renders run two at a time; past the queue, an editor is told at once that it is busy', async () => {
    let running = 0
    let most = 0
    site = await serve(
      async (_req, res) => {
        most = Math.max(most, ++running)
        await sleep(100)
        running -= 1
        res.end('done')
      },
      { limits: { concurrency: 2, queue: 3 } },
    )
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) => fetch(`${site!.origin}/p${index}`)),
    )
    const statuses = answers.map((answer) => answer.status).sort()
    expect(most).toBe(2)
    // Two render, three wait, the other three are refused.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 503, 503, 503])
    const busy = answers.find((answer) => answer.status === 503)!
    expect(busy.headers.get('retry-after')).toBe('5')
    expect(await busy.text()).toContain('The preview is busy')
  })

  test('a render whose editor went away, or whose handler never settles after answering, frees its place', async () => {
    site = await serve(
      async (req, res) => {
        if (req.url === '/hangs') {
          res.end('answered')
          await new Promise(() => {}) // as Next's handler after a client left mid-stream
        }
        res.end('next')
      },
      { limits: { concurrency: 1, timeLimitMs: 2000 } },
    )
    expect(await (await fetch(`${site.origin}/hangs`)).text()).toBe('answered')
    const started = performance.now()
    expect(await (await fetch(`${site.origin}/next`)).text()).toBe('next')
    expect(performance.now() - started).toBeLessThan(1000)
    expect(site.renderer.load).toEqual({ running: 0, waiting: 0 })
  })

  test('past the time limit the editor gets a page saying so; the render keeps its place until it ends', async () => {
    let ended = false
    site = await serve(
      async (req, res) => {
        await sleep(req.url === '/slow' ? 400 : 10)
        res.end('late page')
        ended = true
      },
      { limits: { concurrency: 1, timeLimitMs: 100 } },
    )
    const started = performance.now()
    const slowAnswer = fetch(`${site.origin}/slow`)
    const next = fetch(`${site.origin}/next`)
    const answer = await slowAnswer
    expect(performance.now() - started).toBeLessThan(350)
    expect(answer.status).toBe(503)
    const text = await answer.text()
    expect(text).toContain('This page took too long to render')
    expect(text).toContain('/slow')
    // The next request waited behind the slow render: it ran out of time too, and never ran.
    expect((await next).status).toBe(503)
    await sleep(400)
    expect(ended).toBe(true)
    expect(site.events).toEqual([])
  })

  test('a render past the hard limit is reported (the process then ends)', async () => {
    site = await serve(slow(300), { limits: { timeLimitMs: 50, hardLimitMs: 150 } })
    expect((await fetch(`${site.origin}/forever`)).status).toBe(503)
    await sleep(200)
    expect(site.events).toEqual([{ kind: 'runaway', path: '/forever' }])
  })

  test('a burst that arrives at once is held to the bounds, however long the settings take to read', async () => {
    site = await serve(slow(100), {
      settings: async () => {
        await sleep(100)
        return SETTINGS
      },
      limits: { concurrency: 1, queue: 3, perSession: 100 },
    })
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) => fetch(`${site!.origin}/p${index}`)),
    )
    // One renders, three wait; the other six are refused at once.
    expect(answers.map((answer) => answer.status).sort()).toEqual([
      200, 200, 200, 200, 503, 503, 503, 503, 503, 503,
    ])
  })

  test('one session holds at most its share; another editor still finds a place', async () => {
    site = await serve(slow(50), { limits: { concurrency: 1, queue: 16, perSession: 4 } })
    const burst = Array.from({ length: 10 }, (_, index) =>
      fetch(`${site!.origin}/og/p${index}.png`, { headers: { [SESSION_HEADER]: 'a' } }),
    )
    await sleep(20)
    const other = await fetch(`${site.origin}/sites`, { headers: { [SESSION_HEADER]: 'b' } })
    expect(other.status).toBe(200)
    const statuses = (await Promise.all(burst)).map((answer) => answer.status).sort()
    expect(statuses).toEqual([200, 200, 200, 200, 503, 503, 503, 503, 503, 503])
    const refused = await fetch(`${site.origin}/x`, { headers: { [SESSION_HEADER]: 'a' } })
    expect(refused.status).toBe(200) // its places are free again
  })

  test("sessions take turns: another editor's page waits for one render of the burst, not all of it", async () => {
    const order: string[] = []
    site = await serve(
      async (req, res) => {
        await sleep(40)
        order.push(req.url!)
        res.end('done')
      },
      { limits: { concurrency: 1, queue: 16, perSession: 16 } },
    )
    const burst = Array.from({ length: 12 }, (_, index) =>
      fetch(`${site!.origin}/a${index}`, { headers: { [SESSION_HEADER]: 'a' } }),
    )
    await sleep(20)
    const started = performance.now()
    const other = await fetch(`${site.origin}/b`, { headers: { [SESSION_HEADER]: 'b' } })
    expect(other.status).toBe(200)
    // The render running when it arrived, then its own: not the twelve of the burst.
    expect(performance.now() - started).toBeLessThan(200)
    expect(order.indexOf('/b')).toBeLessThanOrEqual(2)
    await Promise.all(burst)
  })

  test('the session tag is the publisher’s to set, and the render never sees it', async () => {
    let seen: IncomingMessage | undefined
    site = await serve(async (req, res) => {
      seen = req
      res.end('page')
    })
    await fetch(`${site.origin}/sites`, { headers: { [SESSION_HEADER]: 'tag' } })
    expect(seen!.headers[SESSION_HEADER]).toBeUndefined()
  })

  test('the time limit counts from the request’s arrival: a slow settings read is inside it', async () => {
    site = await serve(slow(10), {
      settings: async () => {
        await sleep(500)
        return SETTINGS
      },
      limits: { timeLimitMs: 100 },
    })
    const started = performance.now()
    const answer = await fetch(`${site.origin}/sites`)
    expect(performance.now() - started).toBeLessThan(400)
    expect(answer.status).toBe(503)
    expect(await answer.text()).toContain('This page took too long to render')
  })

  test('a settings read that never ends is past the hard limit too', async () => {
    site = await serve(slow(10), {
      settings: () => new Promise(() => {}),
      limits: { timeLimitMs: 50, hardLimitMs: 150 },
    })
    expect((await fetch(`${site.origin}/stuck`)).status).toBe(503)
    await sleep(200)
    expect(site.events).toEqual([{ kind: 'runaway', path: '/stuck' }])
  })

  test('a request answered by the time limit while it waits leaves the queue at once', async () => {
    site = await serve(slow(400), { limits: { concurrency: 1, timeLimitMs: 100 } })
    const first = fetch(`${site.origin}/slow`)
    await sleep(20)
    expect((await fetch(`${site.origin}/waiting`)).status).toBe(503)
    expect(site.renderer.load).toEqual({ running: 1, waiting: 0 })
    await first
  })

  test("the build's static files are sent at once, outside the renders' places; other paths wait their turn", async () => {
    {
      site = await serve(
        async (req, res) => {
          if (!req.url!.startsWith('/_next/static/')) await sleep(300)
          res.end(req.url)
        },
        { staticFiles: new Set(['chunks/app-1a2b.js']), limits: { concurrency: 1, queue: 1, perSession: 2 } },
      )
      const renders = [fetch(`${site.origin}/a`), fetch(`${site.origin}/b`)]
      await sleep(20)
      const started = performance.now()
      const files = await Promise.all(
        Array.from({ length: 5 }, () => fetch(`${site!.origin}/_next/static/chunks/app-1a2b.js?v=1`)),
      )
      expect(files.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200])
      expect(performance.now() - started).toBeLessThan(250)
      // Not a file of the folder: a render's place, and here none is left.
      for (const url of ['/_next/static/chunks/missing.js', '/_next/static/chunks/%2e%2e/app-1a2b.js'])
        expect([url, (await fetch(`${site.origin}${url}`)).status]).toEqual([url, 503])
      await Promise.all(renders)
    }
  })

  test('a notice names a path as text, never as markup', async () => {
    site = await serve(slow(200), { limits: { timeLimitMs: 20 } })
    const text = await (await fetch(`${site.origin}/%3Cimg%20src=x%20onerror=alert(1)%3E`)).text()
    expect(text).not.toContain('<img')
  })
})
