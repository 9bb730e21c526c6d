/** A local HTTP/2 TLS reverse proxy in front of a served build, as production runs behind Caddy or nginx (self-signed for 127.0.0.1, made per run). */
import http2 from 'node:http2'
import type { AddressInfo } from 'node:net'
import proxy from 'http2-proxy'
import selfsigned from 'selfsigned'

/** Starts the proxy on a free port of 127.0.0.1 before an `http://` origin; its `https://` origin and `stop()`. */
export async function startTlsProxy(upstream: string) {
  const target = new URL(upstream)
  if (target.protocol !== 'http:') throw new Error(`startTlsProxy: upstream must be http://, not ${upstream}`)
  const pems = await selfsigned.generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  })
  const server = http2.createSecureServer({ key: pems.private, cert: pems.cert, allowHTTP1: true })
  server.on('request', (request, response) => {
    proxy.web(request, response, { hostname: target.hostname, port: Number(target.port) }, (error) => {
      if (!error) return
      if (!response.headersSent) response.writeHead(502)
      response.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `https://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
