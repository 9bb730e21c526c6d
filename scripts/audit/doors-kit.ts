/** What every door of `npm run audit:doors` shares: the attempt record, the publisher as an attacker sees it, and small readers of its answers. */
import { connect } from 'node:net'
import type { StoredDocument } from '../../lib/content/source.ts'
import { previewReady as waitForPreview } from '../bench/harness.ts'
import type { ServedSite } from './serve.ts'

export { previewCookie as openSession, writeDataset } from '../bench/harness.ts'

/** One attempt and whether it got through. */
export type DoorAttempt = { door: string; attempt: string; through: boolean; detail?: string }

/** The publisher under attack and what an editor holds of it: an open session's `cookie`, the `dataset` file its preview reads (drafts go there), the `seed` it holds without drafts, its builds' `siteDir`; `attempt` records one attempt, through when the door let it in (or it proved nothing). */
export type DoorsContext = {
  site: ServedSite
  origin: string
  webhookSecret: string
  previewSecret: string
  cookie: string
  dataset: string
  seed: StoredDocument[]
  siteDir: string
  attempt: (door: string, what: string, through: boolean, detail?: string) => void
}

/** A policy's sources for one directive, e.g. `script-src`. */
export const sourcesOf = (policy: string, directive: string): string[] =>
  policy
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([name]) => name === directive)
    ?.slice(1) ?? []

/** The first cookie a response sets, as `name=value`. */
export const sessionOf = (answer: Response): string => answer.headers.getSetCookie()[0]?.split(';')[0] ?? ''

/** A page as an editor with this session gets it, timed; `rendered`: 200 with the preview's banner. */
export async function previewPage(origin: string, cookie: string, url: string) {
  const started = performance.now()
  const answer = await fetch(`${origin}${url}`, { headers: { cookie }, redirect: 'manual' })
  const html = await answer.text()
  return {
    status: answer.status,
    html,
    headers: answer.headers,
    policy: answer.headers.get('content-security-policy') ?? '',
    rendered: answer.status === 200 && html.includes('Leave preview'),
    ms: Math.round(performance.now() - started),
  }
}

/** The preview banner's markup in a page (`<aside data-preview-banner>`), or '' when there is none. */
export function bannerOf(html: string): string {
  const start = html.indexOf('data-preview-banner')
  if (start < 0) return ''
  return html.slice(start, html.indexOf('</aside>', start) + '</aside>'.length)
}

/** Waits until the publisher reports its preview ready, through restarts (5 minutes at most). */
export const previewReady = (context: DoorsContext) => waitForPreview(context.origin, context.webhookSecret)

/** Waits (2 minutes at most) until the preview renders `/` again, its queued renders done, so the next render is the attempt's. */
export async function previewSettled(context: DoorsContext): Promise<void> {
  const until = Date.now() + 120_000
  while (!(await previewPage(context.origin, context.cookie, '/')).rendered) {
    if (Date.now() > until) throw new Error('audit:doors: the preview did not render / within 120 s')
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** What came back over a raw socket: the status line, headers (lower-case names) and body. */
export type RawAnswer = { status: number; headers: Map<string, string[]>; body: string; raw: string }

/** Sends a request's exact text over a fresh TCP connection; what comes back until the server closes it, `waitMs` passes, or a whole answer is in. */
export function rawRequest(origin: string, request: string, waitMs = 10_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) })
    let received = Buffer.alloc(0)
    const done = () => {
      clearTimeout(timer)
      socket.destroy()
      resolve(parseRaw(received.toString('latin1')))
    }
    const timer = setTimeout(done, waitMs)
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk])
      const answer = parseRaw(received.toString('latin1'))
      const length = Number(answer.headers.get('content-length')?.[0] ?? NaN)
      const chunked = answer.headers.get('transfer-encoding')?.includes('chunked')
      // A 100 Continue comes first: the whole answer is the one after it.
      if (
        answer.status >= 200 &&
        ((Number.isFinite(length) && Buffer.byteLength(answer.body, 'latin1') >= length) ||
          (chunked && answer.body.endsWith('0\r\n\r\n')))
      )
        done()
    })
    socket.on('end', done)
    socket.on('error', (error) => {
      clearTimeout(timer)
      if (received.length) resolve(parseRaw(received.toString('latin1')))
      else reject(error)
    })
    socket.write(request)
  })
}

/** The last HTTP answer in raw text (interim 1xx answers skipped). */
function parseRaw(raw: string): RawAnswer {
  let rest = raw
  for (;;) {
    const end = rest.indexOf('\r\n\r\n')
    const head = end < 0 ? rest : rest.slice(0, end)
    const [statusLine = '', ...lines] = head.split('\r\n')
    const status = Number(statusLine.split(' ')[1] ?? 0)
    if (status >= 100 && status < 200 && end >= 0) {
      rest = rest.slice(end + 4)
      continue
    }
    const headers = new Map<string, string[]>()
    for (const line of lines) {
      const colon = line.indexOf(':')
      if (colon < 0) continue
      const name = line.slice(0, colon).trim().toLowerCase()
      headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()])
    }
    return { status, headers, body: end < 0 ? '' : rest.slice(end + 4), raw }
  }
}
