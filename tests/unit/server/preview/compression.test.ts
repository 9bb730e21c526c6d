/**
 * @jest-environment node
 *
 * The preview process's answers compressed where they are made
 * (server/preview/preview-renderer.ts, `compressed`), behind a real HTTP server: brotli for a browser, gzip
 * for a client that takes only gzip, nothing for one that takes neither, and a streamed
 * page's parts sent as they are flushed.
 */
import { createServer, get, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliDecompressSync, createBrotliDecompress, gunzipSync } from 'node:zlib'
import { compressed } from '@/server/preview/preview-renderer'

type Handler = (req: IncomingMessage, res: ServerResponse) => void

const PAGE = `<!doctype html><title>Preview</title>${'<p>A draft, marked for click-to-edit.</p>'.repeat(500)}`

let server: Server | undefined
afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
  server = undefined
})

/** The handler behind a server on a free port; resolves with its origin. */
async function serve(handle: Handler): Promise<string> {
  server = createServer(compressed(handle))
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** An answer as it came over the wire: its headers and its bytes, not decoded. */
function ask(url: string, acceptEncoding?: string): Promise<{ answer: IncomingMessage; bytes: Buffer }> {
  return new Promise((resolve, reject) =>
    get(url, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (answer) => {
      const chunks: Buffer[] = []
      answer.on('data', (chunk: Buffer) => chunks.push(chunk))
      answer.on('end', () => resolve({ answer, bytes: Buffer.concat(chunks) }))
    }).on('error', reject),
  )
}

test("brotli for a browser, gzip for a gzip-only client, the page as it is for others; the bytes are the page's", async () => {
  const origin = await serve((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
    res.end(PAGE)
  })
  const browser = await ask(origin, 'gzip, deflate, br, zstd')
  expect(browser.answer.headers['content-encoding']).toBe('br')
  expect(browser.answer.headers.vary).toBe('Accept-Encoding')
  expect(brotliDecompressSync(browser.bytes).toString()).toBe(PAGE)
  expect(browser.bytes.length).toBeLessThan(PAGE.length / 10)
  const gzipOnly = await ask(origin, 'gzip')
  expect(gzipOnly.answer.headers['content-encoding']).toBe('gzip')
  expect(gunzipSync(gzipOnly.bytes).toString()).toBe(PAGE)
  const plain = await ask(origin)
  expect(plain.answer.headers['content-encoding']).toBeUndefined()
  expect(plain.bytes.toString()).toBe(PAGE)
})

test('a streamed page: each part Next flushes reaches the editor before the page ends', async () => {
  let finish: () => void = () => {}
  const origin = await serve((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
    res.write(PAGE)
    // Next flushes after each part it streams (next/dist/server/pipe-readable.js).
    ;(res as unknown as { flush: () => void }).flush()
    finish = () => res.end('<p>the rest</p>')
  })
  const firstPart = await new Promise<string>((resolve, reject) =>
    get(origin, { headers: { 'accept-encoding': 'br' } }, (answer) => {
      let text = ''
      answer.pipe(createBrotliDecompress()).on('data', (chunk: Buffer) => {
        text += chunk.toString()
        if (text.length >= PAGE.length) resolve(text)
      })
    }).on('error', reject),
  )
  expect(firstPart).toBe(PAGE)
  finish()
})
