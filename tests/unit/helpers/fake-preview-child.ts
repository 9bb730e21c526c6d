/**
 * A stand-in of the preview process (server/preview/preview-child.ts) for the supervisor's tests:
 * it listens on PREVIEW_SOCKET as the real one does and tells the publisher when it is
 * ready, but answers each request itself, with what it was given: the method, path,
 * cookies, session tag and header names, body, its environment's secrets and its own
 * priority and scheduling policy. Some paths misbehave on purpose: `/crash` ends the process
 * (after logging an error that quotes a draft, as a render's error can), `/oom` fills its heap, `/print` writes plain text, `/endless` sends its headers
 * and a first chunk and never ends, `/hop` answers gzipped bytes with hop-by-hop headers.
 */
import { createServer } from 'node:http'
import { readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import { gzipSync } from 'node:zlib'

/** A draft's own words, as a render's error may quote them (the test looks for them). */
const DRAFT_TEXT = 'the unannounced merger with Initech'

const socket = process.env.PREVIEW_SOCKET!
rmSync(socket, { force: true })
const kept: string[][] = []
const server = createServer(async (req, res) => {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  if (req.url === '/crash') {
    const error = `drafts.review-a: ${DRAFT_TEXT} is not a valid URL`
    console.log(JSON.stringify({ level: 50, event: 'preview.render-error', error, msg: 'render failed' }))
    process.exit(3)
  }
  if (req.url === '/oom') for (;;) kept.push(new Array(1e6).fill('x'))
  if (req.url === '/print') console.error('plain text from the preview process')
  if (req.url === '/hop') {
    res.writeHead(200, {
      'Content-Type': 'text/html',
      'Content-Encoding': 'gzip',
      Connection: 'keep-alive, X-Hop-Named',
      'Keep-Alive': 'timeout=5',
      'X-Hop-Named': 'dropped',
      'Proxy-Authenticate': 'Basic',
      Trailer: 'X-Checksum',
      Upgrade: 'h2c',
    })
    res.end(gzipSync('<p>compressed in the preview process</p>'))
    return
  }
  if (req.url === '/endless') {
    res.writeHead(200, { 'Content-Type': 'text/html' })
    res.write('<p>the first part of a page')
    return
  }
  res.writeHead(200, { 'Content-Type': 'application/json', 'X-From': 'preview' })
  res.end(
    JSON.stringify({
      method: req.method,
      url: req.url,
      host: req.headers.host,
      cookie: req.headers.cookie ?? null,
      session: req.headers['x-preview-session'] ?? null,
      headers: Object.keys(req.headers),
      body: Buffer.concat(chunks).toString('utf8'),
      // Those holding a value: the publisher starts it with each secret set empty.
      secrets: Object.keys(process.env).filter(
        (name) => /SECRET|WRITE_TOKEN/.test(name) && process.env[name],
      ),
      priority: os.getPriority(),
      // The scheduling policy, 5 for SCHED_IDLE (Linux's /proc/<pid>/sched).
      policy: Number(/^policy\s*:\s*(\d+)/m.exec(readFileSync('/proc/self/sched', 'utf8'))?.[1]),
      pid: process.pid,
    }),
  )
})
server.listen(socket, () => {
  console.log(JSON.stringify({ level: 30, event: 'preview.listening', msg: 'fake preview listening' }))
  process.send?.({ type: 'ready', loadMs: 1 })
})
process.on('disconnect', () => process.exit(0))
