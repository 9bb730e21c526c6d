/**
 * @jest-environment node
 *
 * The server's own doors: a client that sends its headers and never its body, or never
 * ends its headers, loses its connection within the limits (server/app.ts,
 * SERVER_TIMEOUTS), over a real socket; and behind a proxy (TRUST_PROXY), the per-client
 * limits count the client the proxy saw, whatever X-Forwarded-For entries it writes.
 */
import { connect } from 'node:net'
import { SERVER_TIMEOUTS } from '@/server/app'
import { trustProxyFrom } from '@/server/config'
import { startFixture, type Fixture } from './helpers/publisherFixture'

const SECRET = 'webhook-secret-for-tests-0123456789abcdef'
const PREVIEW = 'preview-secret-for-tests-0123456789abcdef'

let site: Fixture
afterEach(() => site?.close())

/**
 * Opens a connection, writes `text` and nothing more.
 * @returns what the server answered, and after how many ms it closed the connection
 *   (null when it still held it after `waitMs`)
 */
function holdOpen(
  port: number,
  text: string,
  waitMs: number,
): Promise<{ answer: string; closedAfterMs: number | null }> {
  return new Promise((resolve) => {
    const started = Date.now()
    let answer = ''
    const socket = connect({ port, host: '127.0.0.1' }, () => socket.write(text))
    socket.on('data', (chunk) => (answer += chunk.toString()))
    socket.on('error', () => undefined)
    const timer = setTimeout(() => {
      socket.destroy()
      resolve({ answer, closedAfterMs: null })
    }, waitMs)
    socket.on('close', () => {
      clearTimeout(timer)
      resolve({ answer, closedAfterMs: Date.now() - started })
    })
  })
}

describe('time limits on a client', () => {
  const timeouts = { headersMs: 600, requestMs: 1200, checkEveryMs: 100 }
  let port: number
  beforeEach(async () => {
    site = await startFixture({ webhookSecret: SECRET, timeouts }, false)
    await site.app.listen({ port: 0, host: '127.0.0.1' })
    port = (site.app.server.address() as { port: number }).port
  })

  test('a request whose body never comes is answered 408 and closed within the request limit', async () => {
    const headers =
      'POST /api/contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"firstName":'
    const { answer, closedAfterMs } = await holdOpen(port, headers, 5_000)
    expect(closedAfterMs).not.toBeNull()
    expect(closedAfterMs!).toBeGreaterThanOrEqual(timeouts.requestMs - 100)
    expect(closedAfterMs!).toBeLessThan(timeouts.requestMs + 1_000)
    expect(answer).toMatch(/^HTTP\/1\.1 408/)
  })

  test('headers that never end are closed within the headers limit', async () => {
    const { closedAfterMs } = await holdOpen(port, 'GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: 1', 5_000)
    expect(closedAfterMs).not.toBeNull()
    expect(closedAfterMs!).toBeLessThan(timeouts.headersMs + 1_000)
  })
})

test("the publisher's own limits by default: headers 10 s, request 30 s, keep-alive 65 s, idle 60 s", async () => {
  site = await startFixture({}, false)
  const server = site.app.server
  expect(SERVER_TIMEOUTS).toMatchObject({ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 65_000 })
  expect([server.headersTimeout, server.requestTimeout, server.keepAliveTimeout, server.timeout]).toEqual([
    10_000, 30_000, 65_000, 60_000,
  ])
})

describe('TRUST_PROXY', () => {
  test('takes the proxies’ addresses and ranges; refuses true and hop counts, saying what to set', () => {
    expect(trustProxyFrom(undefined)).toBe(false)
    expect(trustProxyFrom('false')).toBe(false)
    expect(trustProxyFrom('127.0.0.1, 173.245.48.0/20,2400:cb00::/32,loopback')).toEqual([
      '127.0.0.1',
      '173.245.48.0/20',
      '2400:cb00::/32',
      'loopback',
    ])
    expect(() => trustProxyFrom('true')).toThrow(
      /TRUST_PROXY=true is refused: .*Set the addresses of the proxies .*TRUST_PROXY=127\.0\.0\.1/,
    )
    expect(() => trustProxyFrom('2')).toThrow(/TRUST_PROXY=2 is refused: .*TRUST_PROXY=127\.0\.0\.1/)
    for (const entry of ['proxy.example', '10.0.0.0/33', '10.0.0.1/8/1', '::1/129'])
      expect(() => trustProxyFrom(`127.0.0.1,${entry}`)).toThrow(
        `TRUST_PROXY: "${entry}" is not an IP address`,
      )
  })

  /** A request through the proxy at 127.0.0.1, which appended the client's address to what the client sent. */
  const viaProxy = (client: string, spoofed: string) => ({
    remoteAddress: '127.0.0.1',
    headers: { 'x-forwarded-for': `${spoofed}, ${client}` },
  })

  test('a client rotating X-Forwarded-For entries is still counted as itself: the wrong-secret limit', async () => {
    site = await startFixture(
      { webhookSecret: SECRET, previewSecret: PREVIEW, trustProxy: ['127.0.0.1'] },
      false,
    )
    const enable = (client: string, spoofed: string, secret = 'wrong') =>
      site.app.inject({ url: `/preview/enable?secret=${secret}&redirect=/`, ...viaProxy(client, spoofed) })
    for (let guess = 0; guess < 10; guess++)
      expect((await enable('203.0.113.7', `198.51.100.${guess}`)).statusCode).toBe(401)
    // The eleventh, under yet another spoofed entry, is refused before its secret is checked.
    expect((await enable('203.0.113.7', '198.51.100.200', PREVIEW)).statusCode).toBe(429)
    // An editor whose address the guesser wrote into its entries is not locked out.
    expect((await enable('198.51.100.3', 'anything', PREVIEW)).statusCode).toBe(303)
    expect(site.logs).toContainEqual(
      expect.objectContaining({ event: 'guess.locked', client: '203.0.113.7' }),
    )
    // A client that reaches the publisher directly, not through the proxy, is its own address.
    const direct = await site.app.inject({
      url: `/preview/enable?secret=${PREVIEW}&redirect=/`,
      remoteAddress: '192.0.2.50',
      headers: { 'x-forwarded-for': '203.0.113.99' },
    })
    expect(direct.statusCode).toBe(303)
  })

  test("a client rotating X-Forwarded-For entries is still counted as itself: the contact inbox's limit", async () => {
    site = await startFixture(
      { trustProxy: ['127.0.0.1'], inboxRateLimit: { max: 2, timeWindow: 60_000 } },
      false,
    )
    const entry = { firstName: 'Sam', lastName: 'Patel', email: 'sam@example.co.uk', phone: '07700 900123' }
    const post = (client: string, spoofed: string) =>
      site.app.inject({ method: 'POST', url: '/api/contact', payload: entry, ...viaProxy(client, spoofed) })
    expect((await post('203.0.113.7', '10.0.0.1')).statusCode).toBe(200)
    expect((await post('203.0.113.7', '10.0.0.2')).statusCode).toBe(200)
    expect((await post('203.0.113.7', '10.0.0.3')).statusCode).toBe(429)
    expect((await post('203.0.113.8', '203.0.113.7')).statusCode).toBe(200)
  })
})
