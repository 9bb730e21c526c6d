/**
 * @jest-environment node
 *
 * The publisher's side of the preview process (server/preview/preview-process.ts), with a
 * stand-in of the process (helpers/fake-preview-child.ts) behind the real publisher app:
 * requests stream to it over its Unix socket, with nothing of the publisher's own; it runs
 * with a lower priority and no secrets; when it ends (a crash, its heap limit) editors
 * get 503 with the reason, visitors the live site, and it is started again; and it ends
 * when the publisher ends, however the publisher ends.
 */
import { spawn, spawnSync } from 'node:child_process'
import { get, type IncomingMessage } from 'node:http'
import { connect } from 'node:net'
import { statSync } from 'node:fs'
import path from 'node:path'
import { Writable } from 'node:stream'
import { publisherLog } from '@/server/log'
import { PreviewProcess } from '@/server/preview/preview-process'
import { NODE, startFixture, type Fixture } from '../../helpers/publisherFixture'

// Each test starts processes of its own: seconds each, more on a busy machine.
jest.setTimeout(30_000)
const FAKE_CHILD = path.resolve('tests/unit/helpers/fake-preview-child.ts')
const PREVIEW = 'preview-secret-for-tests-0123456789abcdef'

let site: Fixture
let preview: PreviewProcess
let origin: string
const logs: Record<string, unknown>[] = []

/** A preview process of the stand-in, and the publisher app handing it a session's requests. */
async function start(options: { heapMb?: number; restartDelayMs?: number } = {}) {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logs.push(JSON.parse(line))
      done()
    },
  })
  preview = new PreviewProcess({
    root: process.cwd(),
    log: publisherLog({ level: 'info', secrets: [PREVIEW], destination: sink }),
    studioOrigins: [],
    build: false,
    program: FAKE_CHILD,
    restartDelayMs: 50,
    env: {
      ...process.env,
      SANITY_PREVIEW_SECRET: PREVIEW,
      SANITY_WEBHOOK_SECRET: 'w'.repeat(32),
      SANITY_API_WRITE_TOKEN: 't'.repeat(32),
    },
    ...options,
  })
  await preview.start()
  site = await startFixture({
    previewSecret: PREVIEW,
    previewServer: () => preview.current(),
    previewUpstream: { base: preview.upstream, answerTimeoutMs: 5000 },
  })
  origin = await site.app.listen({ port: 0, host: '127.0.0.1' })
}

afterEach(async () => {
  await site?.close()
  await preview?.close()
  logs.length = 0
})

/** An open session's cookie header. */
async function session(): Promise<string> {
  const answer = await fetch(`${origin}/preview/enable?secret=${PREVIEW}&redirect=/`, { redirect: 'manual' })
  return answer.headers.getSetCookie()[0]!.split(';')[0]!
}

const waitFor = async (check: () => boolean, ms = 10_000) => {
  const until = Date.now() + ms
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

test("a session's request and its body stream to the process; the publisher's cookie and headers stay behind", async () => {
  await start()
  const cookie = `${await session()}; sanity-preview-perspective=drafts`
  const answer = await fetch(`${origin}/case-studies/x?a=1`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'text/plain' },
    body: 'the server action body',
  })
  expect(answer.status).toBe(200)
  expect(answer.headers.get('x-from')).toBe('preview')
  // The live build's headers for this path are not mixed in.
  expect(answer.headers.get('content-security-policy')).toBeNull()
  const seen = await answer.json()
  expect(seen).toMatchObject({
    method: 'POST',
    url: '/case-studies/x?a=1',
    host: new URL(origin).host,
    cookie: 'sanity-preview-perspective=drafts',
    body: 'the server action body',
  })
  // A visitor never reaches it.
  expect(await (await fetch(`${origin}/sites`)).text()).not.toContain('"pid"')
})

test('an editor who leaves mid-answer ends the request: no handler of the publisher answers it again', async () => {
  await start()
  const cookie = await session()
  // As a browser leaves a page: its connection closes mid-answer.
  const asked = get(`${origin}/endless`, { headers: { cookie } })
  const answer = await new Promise<IncomingMessage>((resolve) => asked.once('response', resolve))
  const first = await new Promise<Buffer>((resolve) => answer.once('data', resolve))
  expect(String(first)).toContain('the first part')
  asked.destroy()
  await new Promise((resolve) => setTimeout(resolve, 300))
  // The live site's own handler, run after the preview's answer, would send a second answer
  // into the closed response (Fastify warns of it) and read a live file for nobody.
  expect(site.logs.filter((line) => /writeHead in stream mode/.test(String(line.msg)))).toEqual([])
  expect(site.logs.filter((line) => line.url === '/endless' && line.statusCode === 404)).toEqual([])
})

test('the socket is in a folder only this user can open; the process has the lowest priority and no secret', async () => {
  await start()
  expect(statSync(path.dirname(preview.socket)).mode & 0o777).toBe(0o700)
  const seen = await (await fetch(`${origin}/`, { headers: { cookie: await session() } })).json()
  expect(seen.priority).toBe(19)
  // SCHED_IDLE (5) where util-linux's chrt is installed: any other process that wakes up
  // comes first; nice 19 alone (the normal policy, 0) where it is not.
  const chrt = spawnSync('chrt', ['--version'], { stdio: 'ignore' }).status === 0
  expect(seen.policy).toBe(chrt ? 5 : 0)
  expect(seen.secrets).toEqual([])
  expect(seen.pid).toBe(preview.pid)
})

test("a process that crashes: editors get 503 with the reason's class, never its error; visitors the live site; it starts again", async () => {
  // Down for a second before it starts again: time to ask what editors are told meanwhile.
  await start({ restartDelayMs: 1000 })
  const cookie = await session()
  const first = preview.pid
  await fetch(`${origin}/crash`, { headers: { cookie } }).catch(() => undefined)
  await waitFor(() => preview.current() instanceof Error)
  const down = await fetch(`${origin}/`, { headers: { cookie } })
  expect(down.status).toBe(503)
  // The process's last error quoted a draft: that stays in the log.
  expect(await down.text()).toBe('the preview is restarting after its process ended. Try again shortly.')
  const health = await fetch(`${origin}/healthz`, { headers: { cookie } })
  expect((await health.json()).preview).toEqual({ failed: 'crashed' })
  expect(await (await fetch(`${origin}/healthz`)).text()).not.toMatch(/preview|Initech/)
  expect(logs).toContainEqual(
    expect.objectContaining({
      event: 'preview.down',
      level: 50,
      class: 'crashed',
      reason: expect.stringMatching(
        /it ended \(exit code 3\): drafts\.review-a: the unannounced merger with Initech/,
      ),
    }),
  )
  expect((await fetch(`${origin}/`)).status).toBe(200)
  await waitFor(() => preview.current() === preview)
  expect(preview.pid).not.toBe(first)
  expect((await fetch(`${origin}/`, { headers: { cookie } })).status).toBe(200)
})

test('past its heap limit the process ends and comes back; the reason says so', async () => {
  await start({ heapMb: 64 })
  const cookie = await session()
  await fetch(`${origin}/oom`, { headers: { cookie } }).catch(() => undefined)
  await waitFor(() => logs.some((line) => line.event === 'preview.down'), 30_000)
  expect(logs.find((line) => line.event === 'preview.down')).toMatchObject({
    class: 'out-of-memory',
    reason: 'it ran out of memory (its heap limit is 64 MB)',
  })
  await waitFor(() => preview.current() === preview)
}, 40_000)

test("what the process prints reaches the publisher's log as JSON, plain text included", async () => {
  await start()
  await fetch(`${origin}/print`, { headers: { cookie: await session() } })
  await waitFor(() => logs.some((line) => line.event === 'preview.output'))
  expect(logs).toContainEqual(
    expect.objectContaining({ event: 'preview.output', line: 'plain text from the preview process' }),
  )
  expect(logs).toContainEqual(expect.objectContaining({ event: 'preview.listening' }))
})

test('the process ends with the publisher, even one killed with SIGKILL', async () => {
  // A publisher of its own, which starts the stand-in and prints its pid.
  const script = `
    import { PreviewProcess } from './server/preview/preview-process.ts'
    import { publisherLog } from './server/log.ts'
    const preview = new PreviewProcess({ root: process.cwd(), log: publisherLog({ level: 'silent', secrets: [] }),
      studioOrigins: [], build: false, program: ${JSON.stringify(FAKE_CHILD)} })
    await preview.start()
    console.log(preview.pid)
    setInterval(() => {}, 1000)
  `
  const publisher = spawn(NODE, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const pid = Number(
    await new Promise<string>((resolve) => publisher.stdout.once('data', (chunk) => resolve(String(chunk)))),
  )
  expect(pid).toBeGreaterThan(0)
  publisher.kill('SIGKILL')
  const alive = () => {
    try {
      process.kill(pid, 0)
      return true
    } catch {
      return false
    }
  }
  await waitFor(() => !alive())
}, 20_000)

/**
 * One request written as raw bytes on its own connection, for what fetch never sends (a whole
 * URL as the target, a broken escape, an upgrade).
 * @returns the interim and final answers' status lines and headers, and the final body
 */
async function raw(
  request: string,
): Promise<{ lines: string[]; headers: Record<string, string>; body: string }> {
  const { port, hostname } = new URL(origin)
  const socket = connect(Number(port), hostname)
  const chunks: Buffer[] = []
  socket.on('data', (chunk) => chunks.push(chunk))
  socket.write(request)
  await new Promise((resolve) => {
    socket.on('close', resolve)
    setTimeout(() => socket.destroy(), 3000)
  })
  const text = Buffer.concat(chunks).toString('latin1')
  const lines = [...text.matchAll(/^HTTP\/1\.1 [^\r]*/gm)].map((match) => match[0])
  // The final answer: its head after its status line, its body (chunk sizes and all) after the head.
  const final = text.slice(text.lastIndexOf(lines.at(-1)!))
  const [head = '', ...rest] = final.split('\r\n\r\n')
  const headers = Object.fromEntries(
    head
      .split('\r\n')
      .slice(1)
      .map((line) => [
        line.slice(0, line.indexOf(':')).toLowerCase(),
        line.slice(line.indexOf(':') + 1).trim(),
      ]),
  )
  return { lines, headers, body: rest.join('\r\n\r\n') }
}

describe("the proxy's own answers, and what passes through it", () => {
  /** The headers every answer to a session's request carries, the publisher's own included. */
  const expectPreviewHeaders = (headers: Record<string, string | null | undefined>) => {
    expect(headers['cache-control']).toBe('private, no-store')
    expect(headers['x-robots-tag']).toBe('noindex')
    expect(headers['x-content-type-options']).toBe('nosniff')
    expect(headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'unsafe-inline';/)
    expect(headers['content-security-policy']).not.toMatch(/script-src/)
  }

  test('the process is told each session by a tag of it, which an editor cannot set and which names nothing', async () => {
    await start()
    const mine = await session()
    const theirs = await session()
    const seen = async (cookie: string) =>
      (await (await fetch(`${origin}/`, { headers: { cookie, 'x-preview-session': 'forged' } })).json()) as {
        session: string
        headers: string[]
      }
    const first = await seen(mine)
    expect(first.session).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect((await seen(mine)).session).toBe(first.session)
    expect((await seen(theirs)).session).not.toBe(first.session)
    const value = decodeURIComponent(mine.split('=')[1]!)
    expect(value).not.toContain(first.session)
  })

  test('hop-by-hop headers are not passed on; a compressed answer passes untouched', async () => {
    await start()
    const answer = await fetch(`${origin}/hop`, { headers: { cookie: await session() } })
    // fetch decodes gzip: the bytes arrived as the process compressed them.
    expect(await answer.text()).toBe('<p>compressed in the preview process</p>')
    expect(answer.headers.get('content-encoding')).toBe('gzip')
    for (const name of ['x-hop-named', 'proxy-authenticate', 'trailer', 'upgrade'])
      expect([name, answer.headers.get(name)]).toEqual([name, null])
    // The publisher's own connection to the editor, not the process's to the publisher.
    expect(answer.headers.get('keep-alive')).toBe('timeout=65')
    const { headers } = await raw(
      `GET /hop HTTP/1.1\r\nHost: x\r\nCookie: ${await session()}\r\nConnection: close\r\n\r\n`,
    )
    expect(headers.connection).toBe('close')
    expect(headers['keep-alive']).toBeUndefined()
  })

  test('a chunked body, and one sent after 100 Continue, reach the process', async () => {
    await start()
    const cookie = await session()
    const chunked = await raw(
      `POST /action HTTP/1.1\r\nHost: x\r\nCookie: ${cookie}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\nabc\r\n0\r\n\r\n`,
    )
    expect(chunked.lines).toEqual(['HTTP/1.1 200 OK'])
    expect(chunked.body).toContain('"body":"abc"')
    const expecting = await raw(
      `POST /action HTTP/1.1\r\nHost: x\r\nCookie: ${cookie}\r\nExpect: 100-continue\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc`,
    )
    expect(expecting.lines).toEqual(['HTTP/1.1 100 Continue', 'HTTP/1.1 200 OK'])
    expect(expecting.body).toContain('"body":"abc"')
    expect(expecting.body).not.toContain('"expect"')
  })

  test.each([
    ['a whole URL as the target', 'GET http://evil.example/ HTTP/1.1', 400],
    ['an escape that cannot be decoded', 'GET /%E0%A4%A HTTP/1.1', 400],
    ['dot segments, encoded', 'GET /a/%2e%2e/sites HTTP/1.1', 400],
    ['a WebSocket upgrade', 'GET / HTTP/1.1\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13', 501],
  ])(
    '%s: the publisher answers itself, with the preview’s headers and no script',
    async (_kind, line, status) => {
      await start()
      const { lines, headers, body } = await raw(
        `${line}\r\nHost: x\r\nCookie: ${await session()}\r\nConnection: close\r\n\r\n`,
      )
      expect(lines).toEqual([expect.stringMatching(new RegExp(`^HTTP/1\\.1 ${status} `))])
      expectPreviewHeaders(headers)
      expect(body).not.toContain('did not answer')
    },
  )

  test("a query's broken escape is the process's to answer, as it came", async () => {
    await start()
    const { lines, body } = await raw(
      `GET /sites?q=%E0%A4%A HTTP/1.1\r\nHost: x\r\nCookie: ${await session()}\r\nConnection: close\r\n\r\n`,
    )
    expect(lines).toEqual(['HTTP/1.1 200 OK'])
    expect(body).toContain('"url":"/sites?q=%E0%A4%A"')
  })

  test('a process that does not answer: the 503 carries the preview’s headers', async () => {
    await start()
    const answer = await fetch(`${origin}/crash`, { headers: { cookie: await session() } })
    expect(answer.status).toBe(503)
    expectPreviewHeaders(Object.fromEntries(answer.headers))
    expect(answer.headers.get('retry-after')).toBe('5')
  })
})
