/** The proxy doors (`share`, `proxy`, `journal`): what the publisher does with a session's requests on the way to the preview and back, and what it keeps on disk. */
import { randomBytes } from 'node:crypto'
import { statSync } from 'node:fs'
import path from 'node:path'
import { JOURNAL_FILE } from '../../server/publishing/publish-journal.ts'
import { DEFAULT_RENDER_LIMITS } from '../../server/preview/preview-renderer.ts'
import { sendWebhook } from '../publisher-client.ts'
import {
  previewPage,
  previewReady,
  previewSettled,
  rawRequest,
  writeDataset,
  type DoorsContext,
} from './doors-kit.ts'

/** A share card of the preview (app/og/[card]): drawn on request, a render of its own. */
const SHARE_CARD = '/og/home.png'

/**
 * One session asks for 40 share cards at once, just after a save; 100 ms later, while they are queued, another
 * session (`otherCookie`) asks for `/`, and the first one for one card more: the "busy" answers say how many wait.
 */
export async function fairShareAttempts(context: DoorsContext, otherCookie: string): Promise<void> {
  const burst = 40
  const { origin, cookie, attempt } = context
  const card = (index: number) =>
    fetch(`${origin}${SHARE_CARD}?burst=${index}`, { headers: { cookie } }).then(async (answer) => ({
      status: answer.status,
      text: answer.status === 503 ? await answer.text() : (await answer.arrayBuffer(), ''),
    }))
  // The card's code is loaded first, as on a preview in use; then a draft is saved, as
  // editors do all the time (each request reads the changed dataset before it queues).
  await previewPage(origin, cookie, SHARE_CARD)
  writeDataset(context.dataset, context.seed)
  const cards = Array.from({ length: burst }, (_, index) => card(index))
  await new Promise((resolve) => setTimeout(resolve, 100))
  const [other, more] = await Promise.all([previewPage(origin, otherCookie, '/'), card(burst)])
  const answers = await Promise.all(cards)
  attempt(
    'share',
    `${burst} share cards from one session, / from another at the same moment`,
    other.status === 503 || other.ms > 2_000,
    `the other got ${other.status} in ${other.ms} ms; the burst: ${answers.filter((a) => a.status === 200).length} drawn, ${answers.filter((a) => a.status === 503).length} × 503`,
  )
  const bound = DEFAULT_RENDER_LIMITS.queue
  const waiting = [...answers, more, { text: other.status === 503 ? other.html : '' }]
    .map((answer) => Number(/(\d+) (?:are|is) waiting/.exec(answer.text)?.[1] ?? 0))
    .reduce((most, count) => Math.max(most, count), 0)
  attempt(
    'share',
    `a "busy" answer reports at most ${bound} waiting`,
    waiting > bound,
    `at most ${waiting} reported`,
  )
}

/** The preview's headers an answer lacks: no-store, a policy, nosniff. */
const missingHeaders = (headers: Map<string, string[]>) => {
  const one = (name: string) => headers.get(name)?.join(', ') ?? ''
  return [
    one('cache-control').includes('no-store') ? '' : 'Cache-Control no-store',
    one('content-security-policy') ? '' : 'a Content-Security-Policy',
    one('x-content-type-options') === 'nosniff' ? '' : 'nosniff',
  ].filter(Boolean)
}

/** Hop-by-hop headers (RFC 9110 §7.6.1), which a proxy answers with its own or not at all. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'upgrade', 'te', 'trailer']

/** The raw-socket attempts (see the module comment). */
export async function rawAttempts(context: DoorsContext): Promise<void> {
  const { origin, cookie, attempt } = context
  const host = new URL(origin).host
  const request = (target: string, headers: string[], withCookie = true) =>
    [
      `GET ${target} HTTP/1.1`,
      `Host: ${host}`,
      ...(withCookie ? [`Cookie: ${cookie}`] : []),
      ...headers,
      '',
      '',
    ].join('\r\n')
  for (const target of ['http://evil.example/', '/%E0%A4%A']) {
    const answer = await rawRequest(origin, request(target, ['Connection: close']))
    const missing = missingHeaders(answer.headers)
    attempt(
      'proxy',
      `GET ${target} with a session: the preview's headers`,
      answer.status === 0 || missing.length > 0,
      `${answer.status || 'no answer'}${missing.length ? `, without ${missing.join(', ')}` : ''}`,
    )
  }
  const unanswered = (answer: { status: number; body: string }) =>
    answer.status === 0 || (answer.status === 503 && answer.body.includes('did not answer'))
  const expect = await rawRequest(origin, request('/', ['Expect: 100-continue', 'Connection: close']))
  attempt(
    'proxy',
    'Expect: 100-continue with a session',
    unanswered(expect),
    String(expect.status || 'no answer'),
  )
  const upgrade = await rawRequest(
    origin,
    request('/', [
      'Connection: Upgrade',
      'Upgrade: websocket',
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
      'Sec-WebSocket-Version: 13',
    ]),
  )
  attempt(
    'proxy',
    'Upgrade: websocket with a session',
    unanswered(upgrade),
    String(upgrade.status || 'no answer'),
  )

  // What the publisher answers on its own (the live site) is the baseline.
  const own = await rawRequest(origin, request('/', [], false))
  const page = await rawRequest(origin, request('/', []))
  const foreign = HOP_BY_HOP.filter(
    (name) => (page.headers.get(name) ?? []).join('|') !== (own.headers.get(name) ?? []).join('|'),
  ).map((name) => `${name}: ${(page.headers.get(name) ?? []).join(' | ')}`)
  attempt(
    'proxy',
    "a preview page carries no hop-by-hop header of the preview process's",
    page.status !== 200 || foreign.length > 0,
    page.status !== 200 ? `answered ${page.status}` : foreign.join('; ') || undefined,
  )
}

/**
 * A draft whose render fails naming a marker of its own is on `/`; then the preview process is killed (SIGKILL):
 * no 503 until it is back may hold a draft's id (any `drafts.` id: an earlier attempt's error may be the last the
 * process logged) nor the marker from its text.
 */
export async function crashAttempts(context: DoorsContext): Promise<void> {
  const { origin, cookie, site, attempt, seed } = context
  const review = seed.find((doc) => doc._type === 'review' && doc.placement === 'both')!
  const marker = `audit-marker-${randomBytes(6).toString('hex')}`
  await previewSettled(context)
  writeDataset(context.dataset, [
    ...seed,
    { ...review, _id: `drafts.${marker}`, name: { [marker]: marker }, text: `${marker} said this.` },
  ])
  const failed = await previewPage(origin, cookie, '/')
  const pid = site.previewPid()
  if (!pid) {
    attempt('proxy', 'the preview process, found to crash it', true)
    return
  }
  process.kill(pid, 'SIGKILL')
  const texts = new Set<string>()
  for (const until = Date.now() + 60_000; Date.now() < until;) {
    const page = await previewPage(origin, cookie, '/')
    if (page.status === 503) texts.add(page.html)
    else if (texts.size) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const told = [...texts].find((text) => text.includes(marker) || /\bdrafts\.[\w.-]/.test(text))
  attempt(
    'proxy',
    "the 503 while the preview restarts after a crash holds no draft's id or text",
    texts.size === 0 || told !== undefined,
    texts.size === 0
      ? 'no 503 seen'
      : `${(told ?? [...texts].join(' | '))
          .replace(/<[^>]+>/g, ' ')
          .replace(/\s+/g, ' ')
          .slice(0, 240)} (the draft's own page answered ${failed.status})`,
  )
  writeDataset(context.dataset, seed)
  await previewReady(context)
}

/** Distinct keys and deliveries of each (`journalAttempts`). */
const KEYS = 3
const REPEATS = 5

/**
 * Webhook deliveries naming a published document with 15 kB idempotency keys, each sent `REPEATS` times: the
 * journal may grow by at most 1 kB a key (each is a publish: the audit sends them last).
 */
export async function journalAttempts(
  context: DoorsContext,
  document: { _id: string; _type: string },
): Promise<void> {
  const { origin, webhookSecret, siteDir, attempt } = context
  const journal = path.join(siteDir, JOURNAL_FILE)
  const size = () => statSync(journal, { throwIfNoEntry: false })?.size ?? 0
  const before = size()
  const statuses: number[] = []
  for (let key = 0; key < KEYS; key++) {
    const idempotencyKey = `audit-${key}-${randomBytes(4).toString('hex')}-${'k'.repeat(15_000)}`
    for (let repeat = 0; repeat < REPEATS; repeat++)
      statuses.push(await sendWebhook(origin, webhookSecret, document, idempotencyKey))
  }
  const grown = size() - before
  const counts = [...Map.groupBy(statuses, (status) => status)]
    .map(([status, list]) => `${status}×${list.length}`)
    .join(' ')
  attempt(
    'journal',
    `${KEYS} idempotency keys of 15 kB, each delivered ${REPEATS} times: the journal grows at most 1 kB a key`,
    grown > 1024 * KEYS,
    `grew ${grown} bytes; answers ${counts}`,
  )
}
