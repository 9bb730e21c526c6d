/**
 * @jest-environment node
 */
import * as fsPromises from 'node:fs/promises'
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { WEBHOOK_PATH } from '@/lib/publisher-routes'
import { JOURNAL_FILE, KEY_TTL_MS, keyDigest, PublishJournal, type JournalFs } from '@/server/publish-journal'
import { webhookHeaders } from '@/scripts/publisher-client'
import { buildCount, deliverWebhook, startFixture, type Fixture } from './helpers/publisherFixture'

jest.setTimeout(60_000)
const SECRET = 'journal-secret'
let site: Fixture | undefined
afterEach(async () => {
  await site?.close()
  site = undefined
})

/** The journal's records as on disk. */
const records = (fixture: Fixture) =>
  readFileSync(path.join(fixture.store.root, JOURNAL_FILE), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))

/** `node:fs/promises` whose file handles fail `sync` with `code` while `failing()` says so. */
function failingFs(failing: () => string | null, onSync?: () => Promise<void>): JournalFs {
  return {
    ...fsPromises,
    open: (async (...args: Parameters<typeof fsPromises.open>) => {
      const handle = await fsPromises.open(...args)
      const sync = handle.sync.bind(handle)
      handle.sync = async () => {
        await onSync?.()
        const code = failing()
        if (code) throw Object.assign(new Error(`${code}: injected by the test, fsync`), { code })
        return sync()
      }
      return handle
    }) as typeof fsPromises.open,
  }
}

describe('the webhook answers 2xx only once the publish is on disk', () => {
  test('the 202 waits for the fsync of the record', async () => {
    let release: () => void = () => {}
    let hold = false
    const synced = new Promise<void>((resolve) => (release = resolve))
    site = await startFixture({
      webhookSecret: SECRET,
      journalFs: failingFs(
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
        op: 'accepted',
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
      site = await startFixture({ webhookSecret: SECRET, journalFs: failingFs(() => failing) })
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
    expect(records(site)).toContainEqual(expect.objectContaining({ op: 'done', outcome: 'failed' }))

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
  const lines = () =>
    readFileSync(path.join(dir, 'site', JOURNAL_FILE), 'utf8')
      .trim()
      .split('\n')

  test('stays bounded: done publishes are dropped once their key is a day old, at most maxEntries kept', async () => {
    let clock = Date.parse('2026-11-28T10:00:00Z')
    const journal = new PublishJournal(path.join(dir, 'site'), { now: () => clock, maxEntries: 300 })
    for (let i = 0; i < 3000; i++) {
      const entry = await journal.accept({ documentId: `review-${i}`, idempotencyKey: `key-${i}` })
      if (entry !== 'duplicate') await journal.done([entry.id], 'live')
      clock += 60_000
    }
    // 6,000 records written; never more than 1,000 lines since the last rewrite, about twice
    // what a rewrite leaves (the 300 newest keys and their done record).
    expect(lines().length).toBeLessThanOrEqual(1000)
    const reread = new PublishJournal(path.join(dir, 'site'), { now: () => clock, maxEntries: 300 })
    // The newest keys are still deduplicated; the oldest, beyond maxEntries, are not.
    expect(await reread.accept({ idempotencyKey: 'key-2999' })).toBe('duplicate')
    expect(await reread.accept({ idempotencyKey: 'key-0' })).not.toBe('duplicate')
    expect(reread.pending().map((entry) => entry.keyHash)).toEqual([keyDigest('key-0')])
  })

  test('a key is remembered for a day, and a pending publish survives the rewrites', async () => {
    let clock = Date.parse('2026-11-28T10:00:00Z')
    const journal = new PublishJournal(path.join(dir, 'site'), { now: () => clock })
    const pending = await journal.accept({ documentId: 'review-pending', idempotencyKey: 'pending' })
    const live = await journal.accept({ documentId: 'review-live', idempotencyKey: 'live' })
    if (live === 'duplicate' || pending === 'duplicate') throw new Error('not a duplicate')
    await journal.done([live.id], 'live')
    clock += KEY_TTL_MS - 1
    expect(await journal.accept({ idempotencyKey: 'live' })).toBe('duplicate')
    clock += 2
    // 2,000 more lines: rewritten at least once.
    for (let i = 0; i < 1000; i++) {
      const entry = await journal.accept({ idempotencyKey: `k${i}` })
      if (entry !== 'duplicate') await journal.done([entry.id], 'failed')
    }
    const reread = new PublishJournal(path.join(dir, 'site'), { now: () => clock })
    await reread.load()
    expect(reread.pending().map((entry) => entry.documentId)).toEqual(['review-pending'])
    expect(await reread.accept({ idempotencyKey: 'live' })).not.toBe('duplicate')
    expect(await reread.accept({ idempotencyKey: 'k999' })).toBe('duplicate')
  })

  test('a line cut short or not a record is skipped and kept in a copy; the next record is whole', async () => {
    const site = path.join(dir, 'site')
    const journal = new PublishJournal(site)
    const entry = await journal.accept({ documentId: 'review-a', idempotencyKey: 'a' })
    if (entry === 'duplicate') throw new Error('not a duplicate')
    const file = path.join(site, JOURNAL_FILE)
    writeFileSync(file, `${readFileSync(file, 'utf8')}not json\n{"op":"accepted","id":"x","ke`)
    const warnings: string[] = []
    const reread = new PublishJournal(site, { warn: (message) => warnings.push(message) })
    await reread.load()
    expect(reread.skippedLines).toBe(2)
    expect(warnings.join('\n')).toMatch(/line 2, 3 not a journal record/)
    const copy = readdirSync(site).find((name) => name.startsWith(`${JOURNAL_FILE}.damaged-`))
    expect(readFileSync(path.join(site, copy!), 'utf8')).toContain('not json')
    await reread.accept({ documentId: 'review-b', idempotencyKey: 'b' })
    const again = new PublishJournal(site)
    await again.load()
    expect(again.skippedLines).toBe(0)
    expect(again.pending().map((pending) => pending.documentId)).toEqual(['review-a', 'review-b'])
  })

  test('a file that cannot be read is an error, and is read again on the next call', async () => {
    let failing = true
    const fs: JournalFs = {
      ...fsPromises,
      readFile: (async (...args: Parameters<typeof fsPromises.readFile>) => {
        if (failing) throw Object.assign(new Error('EACCES: injected by the test'), { code: 'EACCES' })
        return fsPromises.readFile(...args)
      }) as typeof fsPromises.readFile,
    }
    const journal = new PublishJournal(path.join(dir, 'site'), { fs })
    await expect(journal.accept({ idempotencyKey: 'a' })).rejects.toThrow(/EACCES/)
    failing = false
    expect(await journal.accept({ idempotencyKey: 'a' })).toMatchObject({ keyHash: keyDigest('a') })
  })

  test('a 15 kB idempotency key is kept as its digest: 1,500 of them leave the file as small as short keys do', async () => {
    let clock = Date.parse('2026-11-28T10:00:00Z')
    const journal = new PublishJournal(path.join(dir, 'site'), { now: () => clock, maxEntries: 300 })
    const longKey = (i: number) => `${i}-${'k'.repeat(15_000)}`
    for (let i = 0; i < 1500; i++) {
      const entry = await journal.accept({
        documentId: `review-${i}`,
        type: 'review',
        idempotencyKey: longKey(i),
      })
      if (entry !== 'duplicate') await journal.done([entry.id], 'live')
      clock += 60_000
    }
    // At most 1,000 lines of at most ~170 bytes (a whole key: 15 kB a line, 15 MB in all).
    const bytes = statSync(path.join(dir, 'site', JOURNAL_FILE)).size
    expect(bytes).toBeLessThan(200_000)
    expect(readFileSync(path.join(dir, 'site', JOURNAL_FILE), 'utf8')).not.toContain('kkkk')
    const reread = new PublishJournal(path.join(dir, 'site'), { now: () => clock, maxEntries: 300 })
    expect(await reread.accept({ idempotencyKey: longKey(1499) })).toBe('duplicate')
    // Another key of the same length and the same first 15,000 characters is another delivery.
    expect(await reread.accept({ idempotencyKey: `${longKey(1499)}x` })).not.toBe('duplicate')
  })

  test('a document id or type longer than any Sanity name is not recorded; the publish is', async () => {
    const journal = new PublishJournal(path.join(dir, 'site'))
    const entry = await journal.accept({ documentId: 'x'.repeat(100_000), type: 't'.repeat(257) })
    expect(Object.keys(entry).sort()).toEqual(['at', 'id'])
    expect(statSync(path.join(dir, 'site', JOURNAL_FILE)).size).toBeLessThan(200)
    const reread = new PublishJournal(path.join(dir, 'site'))
    await reread.load()
    expect(reread.pending()).toHaveLength(1)
  })

  test('a journal written with whole keys (before digests) still deduplicates them', async () => {
    const site = path.join(dir, 'site')
    mkdirSync(site)
    const at = new Date().toISOString()
    writeFileSync(
      path.join(site, JOURNAL_FILE),
      `{"op":"accepted","id":"a","key":"old-key","documentId":"review-a","at":"${at}"}\n` +
        `{"op":"done","ids":["a"],"outcome":"live","at":"${at}"}\n`,
    )
    const journal = new PublishJournal(site)
    expect(await journal.accept({ idempotencyKey: 'old-key' })).toBe('duplicate')
    expect(await journal.accept({ idempotencyKey: 'new-key' })).toMatchObject({
      keyHash: keyDigest('new-key'),
    })
  })
})
