/** @jest-environment node */
/**
 * The audit's TLS reverse proxy (scripts/audit/tls-proxy.ts): it answers over
 * HTTP/2 with what the upstream answers, headers and compressed bodies untouched.
 */
import http from 'node:http'
import http2 from 'node:http2'
import type { AddressInfo } from 'node:net'
import { startTlsProxy } from '../../../../scripts/audit/tls-proxy'

test('forwards an HTTP/2 request to the upstream and its answer back unchanged', async () => {
  const upstream = http.createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'br', 'x-path': request.url })
    response.end('body')
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  const proxy = await startTlsProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`)
  try {
    expect(proxy.origin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
    const client = http2.connect(proxy.origin, { rejectUnauthorized: false })
    const answer = await new Promise<{ headers: http2.IncomingHttpHeaders; body: string }>(
      (resolve, reject) => {
        const stream = client.request({ ':path': '/case-studies.txt?x=1' })
        let body = ''
        let headers: http2.IncomingHttpHeaders = {}
        stream.on('response', (received) => (headers = received))
        stream.on('data', (chunk: Buffer) => (body += chunk.toString()))
        stream.on('end', () => resolve({ headers, body }))
        stream.on('error', reject)
      },
    )
    client.close()
    expect(answer.headers[':status']).toBe(200)
    expect(answer.headers['content-encoding']).toBe('br')
    expect(answer.headers['x-path']).toBe('/case-studies.txt?x=1')
    expect(answer.body).toBe('body')
  } finally {
    await proxy.stop()
    await new Promise((resolve) => upstream.close(resolve))
  }
})

test('refuses an upstream that is not http://', async () => {
  await expect(startTlsProxy('https://127.0.0.1:1')).rejects.toThrow(/must be http:\/\//)
})
