/**
 * @jest-environment node
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { WEBHOOK_PATH } from '@/lib/publisher-routes'
import {
  JOURNAL_FILE,
  KEY_TTL_MS,
  keyDigest,
  PublishJournal,
  writeAtomic,
} from '@/server/publishing/publish-journal'
import { webhookHeaders } from '@/scripts/publisher-client'
import { buildCount, deliverWebhook, startFixture, type Fixture } from '../../helpers/publisherFixture'

jest.setTimeout(60_000)
const SECRET = 'journal-secret'
let site: Fixture | undefined
afterEach(async () => {
  await site?.close()
  site = undefined
})

/** The journal's entries as on disk. */
const records = (fixture: Fixture) =>
  JSON.parse(readFileSync(path.join(fixture.store.root, JOURNAL_FILE), 'utf8')) as Record<string, unknown>[]

/** The journal's write, failing with `code` while `failing()` says so, after `before()`. */
function failingWrite(failing: () => string | null, before?: () => Promise<void>): typeof writeAtomic {
  return async (file, text) => {
    await before?.()
    const code = failing()
    if (code) throw Object.assign(new Error(`${code}: injected by the test, write`), { code })
    return writeAtomic(file, text)
  }
}

describe('the webhook answers 2xx only once the publish is on disk', () => {
  test('the 202 waits for the write of the record', async () => {
    let release: () => void = () => {}
    let hold = false
    const synced = new Promise<void>((resolve) => (release = resolve))
    site = await startFixture({
      webhookSecret: SECRET,
      journalWrite: failingWrite(
        () => null,
        () => (hold ? synced : Promise.resolve()),
      ),
    })
    hold = true
    let answered = false
    const answer = deliverWebhook(site, SECRET, 'review-a', 'key-a').then((response) => {
      answered = true
      return response
    })
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(answered).toBe(false)
    release()
    expect((await answer).statusCode).toBe(202)
    expect(records(site)).toContainEqual(
      expect.objectContaining({
        keyHash: keyDigest('key-a'),
        documentId: 'review-a',
        type: 'review',
      }),
    )
  })

  test.each(['ENOSPC', 'EPERM'])(
    'a journal that cannot be written (%s) answers 503 with Retry-After, builds nothing, and takes the retry',
    async (code) => {
      let failing: string | null = null
      site = await startFixture({ webhookSecret: SECRET, journalWrite: failingWrite(() => failing) })
      const before = buildCount(site)
      failing = code
      const body = JSON.stringify({ _id: 'review-a', _type: 'review' })
      const headers = await webhookHeaders(body, SECRET, 'key-a')
      const send = () => site!.app.inject({ method: 'POST', url: WEBHOOK_PATH, headers, payload: body })
      const refused = await send()
      expect(refused.statusCode).toBe(503)
      expect(refused.headers['retry-after']).toBe('30')
      expect(site.logs).toContainEqual(
        expect.objectContaining({
          event: 'webhook.unrecorded',
          level: 50,
          idempotencyKey: 'key-a',
          error: expect.stringContaining(code),
        }),
      )
      expect(site.logs.some((line) => line.event === 'webhook.accepted')).toBe(false)
      expect(site.publisher.documentStates.get('review-a')).toBeNull()
      // Sanity sends the same delivery again (same key, same signature): taken once it can be written.
      failing = null
      expect((await send()).statusCode).toBe(202)
      expect(records(site).filter((record) => record.keyHash === keyDigest('key-a'))).toHaveLength(1)
      await site.publisher.idle()
      expect(buildCount(site)).toBe(before + 1)
      expect((await send()).statusCode).toBe(200)
    },
  )
})

describe('a restart builds again what was accepted and never went live', () => {
  test('a publish whose build the stop killed is requested once on the next start, then done', async () => {
    site = await startFixture({ webhookSecret: SECRET })
    site.buildEnv.FAKE_BUILD_MS = '30000'
    site.setContent('published before the stop')
    expect((await deliverWebhook(site, SECRET, 'review-a', 'key-a')).statusCode).toBe(202)
    await new Promise((resolve) => setTimeout(resolve, 300))
    site.publisher.stop()
    await site.publisher.idle()
    expect((await site.app.inject({ url: '/' })).body).not.toContain('published before the stop')

    delete site.buildEnv.FAKE_BUILD_MS
    await site.restart()
    const before = buildCount(site)
    expect(await site.publisher.resume()).toBe(1)
    expect(site.publisher.documentStates.get('review-a')).toMatchObject({ state: 'building' })
    expect(site.logs).toContainEqual(
      expect.objectContaining({ event: 'journal.resume', publishes: 1, documents: ['review-a'] }),
    )
    await site.publisher.idle()
    expect(buildCount(site)).toBe(before + 1)
    expect((await site.app.inject({ url: '/' })).body).toContain('published before the stop')
    expect(site.publisher.documentStates.get('review-a')).toMatchObject({ state: 'live' })

    // Done now: the next start builds nothing.
    await site.restart()
    expect(await site.publisher.resume()).toBe(0)
    await site.publisher.idle()
    expect(buildCount(site)).toBe(before + 1)
  })

  test('a build that failed on its content is a final answer; one the HTML checker could not check is not', async () => {
    let checker: 'broken' | 'ok' = 'ok'
    site = await startFixture({
      webhookSecret: SECRET,
      gate: {
        html: true,
        checkHtml: async () => {
          if (checker === 'broken') throw new Error('the HTML checker failed twice, restarted between')
          return []
        },
      },
    })
    site.buildEnv.FAKE_BUILD_FAIL = 'content'
    await deliverWebhook(site, SECRET, 'review-a', 'key-a')
    await site.publisher.idle()
    expect(site.publisher.documentStates.get('review-a')).toMatchObject({ state: 'failed' })
    expect(records(site)).toContainEqual(
      expect.objectContaining({ documentId: 'review-a', outcome: 'failed' }),
    )

    delete site.buildEnv.FAKE_BUILD_FAIL
    site.setContent('changed') // a changed page: the gate checks its HTML
    checker = 'broken'
    await deliverWebhook(site, SECRET, 'review-b', 'key-b')
    await site.publisher.idle()
    expect(site.publisher.status().lastError?.message).toMatch(/HTML checker failed/)

    checker = 'ok'
    await site.restart()
    expect(await site.publisher.resume()).toBe(1)
    expect(site.logs).toContainEqual(
      expect.objectContaining({ event: 'journal.resume', documents: ['review-b'] }),
    )
    await site.publisher.idle()
    expect((await site.app.inject({ url: '/' })).body).toContain('<h1>changed</h1>')
  })

  test("Sanity's idempotency key still deduplicates after a restart", async () => {
    site = await startFixture({ webhookSecret: SECRET })
    expect((await deliverWebhook(site, SECRET, 'review-a', 'key-a')).statusCode).toBe(202)
    await site.publisher.idle()
    const before = buildCount(site)
    await site.restart()
    const retry = await deliverWebhook(site, SECRET, 'review-a', 'key-a')
    expect(retry.statusCode).toBe(200)
    expect(retry.json()).toEqual({ status: 'duplicate' })
    expect((await deliverWebhook(site, SECRET, 'review-a', 'key-b')).statusCode).toBe(202)
    await site.publisher.idle()
    expect(buildCount(site)).toBe(before + 1)
  })

  test('drafts and bookkeeping documents are not journaled (they build nothing)', async () => {
    site = await startFixture({ webhookSecret: SECRET })
    expect((await deliverWebhook(site, SECRET, 'drafts.review-a', 'key-d')).statusCode).toBe(202)
    expect(
      (await deliverWebhook(site, SECRET, 'secret-1', 'key-s', 'sanity.previewUrlSecret')).statusCode,
    ).toBe(202)
    await site.restart()
    expect(await site.publisher.resume()).toBe(0)
  })
})

describe('the journal file', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'journal-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))
  const file = () => path.join(dir, 'site', JOURNAL_FILE)
  const entries = () => JSON.parse(readFileSync(file(), 'utf8')) as unknown[]

  test('stays bounded: done publishes are dropped once their key is a day old, at most maxEntries kept', async () => {
    let clock = Date.parse('2026-11-28T10:00:00Z')
    const journal = new PublishJournal(path.join(dir, 'site'), { now: () => clock, maxEntries: 30 })
    for (let i = 0; i < 300; i++) {
      const entry = await journal.accept({ documentId: `review-${i}`, idempotencyKey: `key-${i}` })
      if (entry !== 'duplicate') await journal.done([entry.id], 'live')
      clock += 10 * 60_000
    }
    expect(entries()).toHaveLength(30)
    const reread = new PublishJournal(path.join(dir, 'site'), { now: () => clock, maxEntries: 30 })
    // The newest keys are still deduplicated; the oldest, beyond maxEntries, are not.
    expect(await reread.accept({ idempotencyKey: 'key-299' })).toBe('duplicate')
    expect(await reread.accept({ idempotencyKey: 'key-0' })).not.toBe('duplicate')
    expect(reread.pending().map((entry) => entry.keyHash)).toEqual([keyDigest('key-0')])
  })

  test('a key is remembered for a day, and a pending publish stays while others come and go', async () => {
    let clock = Date.parse('2026-11-28T10:00:00Z')
    const journal = new PublishJournal(path.join(dir, 'site'), { now: () => clock })
    const pending = await journal.accept({ documentId: 'review-pending', idempotencyKey: 'pending' })
    const live = await journal.accept({ documentId: 'review-live', idempotencyKey: 'live' })
    if (live === 'duplicate' || pending === 'duplicate') throw new Error('not a duplicate')
    await journal.done([live.id], 'live')
    clock += KEY_TTL_MS - 1
    expect(await journal.accept({ idempotencyKey: 'live' })).toBe('duplicate')
    clock += 2
    for (let i = 0; i < 50; i++) {
      const entry = await journal.accept({ idempotencyKey: `k${i}` })
      if (entry !== 'duplicate') await journal.done([entry.id], 'failed')
    }
    const reread = new PublishJournal(path.join(dir, 'site'), { now: () => clock })
    await reread.load()
    expect(reread.pending().map((entry) => entry.documentId)).toEqual(['review-pending'])
    expect(await reread.accept({ idempotencyKey: 'live' })).not.toBe('duplicate')
    expect(await reread.accept({ idempotencyKey: 'k49' })).toBe('duplicate')
  })

  test('a file that is not a journal is set aside, and one pending publish stands for what it held', async () => {
    const site = path.join(dir, 'site')
    const journal = new PublishJournal(site)
    await journal.accept({ documentId: 'review-a', idempotencyKey: 'a' })
    writeFileSync(file(), `${readFileSync(file(), 'utf8').slice(0, -5)}not json`)
    const warnings: string[] = []
    const reread = new PublishJournal(site, { warn: (message) => warnings.push(message) })
    await reread.load()
    expect(warnings.join('\n')).toMatch(
      /is not a publish journal; set aside as .*damaged-\d+, and one build runs/,
    )
    const aside = readdirSync(site).find((name) => name.startsWith(`${JOURNAL_FILE}.damaged-`))
    expect(readFileSync(path.join(site, aside!), 'utf8')).toContain('not json')
    expect(reread.pending()).toEqual([{ id: expect.any(String), at: expect.any(String) }])
    await reread.accept({ documentId: 'review-b', idempotencyKey: 'b' })
    const again = new PublishJournal(site)
    await again.load()
    expect(again.pending().map((pending) => pending.documentId)).toEqual([undefined, 'review-b'])
  })

  test('a file that cannot be read is an error, and is read again on the next call', async () => {
    let failing = true
    const read = async (file: string) => {
      if (failing) throw Object.assign(new Error('EACCES: injected by the test'), { code: 'EACCES' })
      return readFileSync(file, 'utf8')
    }
    const journal = new PublishJournal(path.join(dir, 'site'), { read })
    await expect(journal.accept({ idempotencyKey: 'a' })).rejects.toThrow(/EACCES/)
    failing = false
    expect(await journal.accept({ idempotencyKey: 'a' })).toMatchObject({ keyHash: keyDigest('a') })
  })

  test('a write that fails leaves the file as it was and the publish not accepted', async () => {
    let failing: string | null = null
    const journal = new PublishJournal(path.join(dir, 'site'), { write: failingWrite(() => failing) })
    await journal.accept({ idempotencyKey: 'a' })
    failing = 'ENOSPC'
    await expect(journal.accept({ idempotencyKey: 'b' })).rejects.toThrow(/ENOSPC/)
    expect(entries()).toHaveLength(1)
    expect(journal.pending()).toHaveLength(1)
    failing = null
    expect(await journal.accept({ idempotencyKey: 'b' })).not.toBe('duplicate')
  })

  test('a 15 kB idempotency key is kept as its digest: 150 of them leave the file as small as short keys do', async () => {
    let clock = Date.parse('2026-11-28T10:00:00Z')
    const journal = new PublishJournal(path.join(dir, 'site'), { now: () => clock, maxEntries: 30 })
    const longKey = (i: number) => `${i}-${'k'.repeat(15_000)}`
    for (let i = 0; i < 150; i++) {
      const entry = await journal.accept({
        documentId: `review-${i}`,
        type: 'review',
        idempotencyKey: longKey(i),
      })
      if (entry !== 'duplicate') await journal.done([entry.id], 'live')
      clock += 60_000
    }
    // 30 entries of about 190 bytes (a whole key: 15 kB each, 450 kB in all).
    expect(statSync(file()).size).toBeLessThan(7_000)
    expect(readFileSync(file(), 'utf8')).not.toContain('kkkk')
    const reread = new PublishJournal(path.join(dir, 'site'), { now: () => clock, maxEntries: 30 })
    expect(await reread.accept({ idempotencyKey: longKey(149) })).toBe('duplicate')
    // Another key of the same length and the same first 15,000 characters is another delivery.
    expect(await reread.accept({ idempotencyKey: `${longKey(149)}x` })).not.toBe('duplicate')
  })

  test('a document id or type longer than any Sanity name is not recorded; the publish is', async () => {
    const journal = new PublishJournal(path.join(dir, 'site'))
    const entry = await journal.accept({ documentId: 'x'.repeat(100_000), type: 't'.repeat(257) })
    expect(Object.keys(entry).sort()).toEqual(['at', 'id'])
    expect(statSync(file()).size).toBeLessThan(200)
    const reread = new PublishJournal(path.join(dir, 'site'))
    await reread.load()
    expect(reread.pending()).toHaveLength(1)
  })

  test("the earlier versions' append-only journal is replaced by one pending publish", async () => {
    const site = path.join(dir, 'site')
    mkdirSync(site)
    const old = path.join(site, 'publish-journal.ndjson')
    writeFileSync(
      old,
      `{"op":"accepted","id":"a","documentId":"review-a","at":"${new Date().toISOString()}"}\n`,
    )
    const journal = new PublishJournal(site)
    await journal.load()
    expect(journal.pending()).toEqual([{ id: expect.any(String), at: expect.any(String) }])
    expect(existsSync(old)).toBe(false)
    expect(entries()).toHaveLength(1)
  })
})
