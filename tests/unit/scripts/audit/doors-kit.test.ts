/**
 * @jest-environment node
 */
/**
 * The readers the doors audit judges answers with (scripts/audit/doors-kit.ts): a raw
 * HTTP exchange read to its end (past a 100 Continue, a chunked body, a server that keeps
 * the connection open), a policy's sources, the preview banner. A reader that gets these
 * wrong makes an attempt hold that got through.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { bannerOf, rawRequest, sourcesOf } from '../../../../scripts/audit/doors-kit'

let server: Server
let origin = ''

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/chunked') {
      response.writeHead(200, { 'content-type': 'text/plain', 'keep-alive': 'timeout=5' })
      response.write('first ')
      setTimeout(() => response.end('last'), 20)
      return
    }
    response.writeHead(503, { 'content-type': 'text/plain', 'content-length': '15' }).end('did not answer.')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise((resolve) => server.close(resolve)))

const get = (target: string, headers: string[] = []) =>
  [`GET ${target} HTTP/1.1`, 'Host: localhost', ...headers, '', ''].join('\r\n')

describe('rawRequest', () => {
  it('reads a chunked answer to its end on a kept-alive connection, every header by its lower-case name', async () => {
    const started = Date.now()
    const answer = await rawRequest(origin, get('/chunked'), 5_000)
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('keep-alive')).toEqual(['timeout=5'])
    expect(answer.body).toContain('first ')
    expect(answer.body).toMatch(/last\r\n0\r\n\r\n$/)
  })

  it('skips an interim 100 Continue and reads the answer after it', async () => {
    // Node's server sends the 100 Continue itself, before the handler's answer.
    const answer = await rawRequest(origin, get('/', ['Expect: 100-continue', 'Connection: close']), 5_000)
    expect(answer.raw).toMatch(/^HTTP\/1\.1 100 Continue/)
    expect(answer.status).toBe(503)
    expect(answer.body).toBe('did not answer.')
  })
})

describe('sourcesOf and bannerOf', () => {
  it("reads one directive's sources, and nothing for a directive the policy lacks", () => {
    const policy = "default-src 'none'; frame-src 'self' https://a.example;sandbox"
    expect(sourcesOf(policy, 'frame-src')).toEqual(["'self'", 'https://a.example'])
    expect(sourcesOf(policy, 'script-src')).toEqual([])
  })

  it('cuts the preview banner out of a page, or nothing when there is none', () => {
    const html =
      '<main>drafts.x</main><aside aria-label="Preview" data-preview-banner=""><code>drafts.y</code></aside><footer/>'
    expect(bannerOf(html)).toContain('drafts.y')
    expect(bannerOf(html)).not.toContain('drafts.x')
    expect(bannerOf('<main></main>')).toBe('')
  })
})
