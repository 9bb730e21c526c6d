/**
 * @jest-environment node
 */
import { execFile, execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { failureReason, stepFailure } from '@/server/publishing/build-command'
import {
  deliverWebhook,
  NODE,
  operatorHeaders,
  startFixture,
  type Fixture,
} from '../../helpers/publisherFixture'

jest.setTimeout(60_000)
const SECRET = 'failures-secret-0123456789abcdef01234567'
let site: Fixture
afterEach(() => site?.close())

/** /healthz as the operator's scripts read it (the whole report). */
const health = async () =>
  (await site.app.inject({ url: '/healthz', headers: operatorHeaders(SECRET) })).json()
const badge = async (id: string) =>
  (await site.app.inject({ url: `/api/publish-status/${id}`, headers: operatorHeaders(SECRET) })).json()
const home = async () => (await site.app.inject({ url: '/' })).body
let deliveries = 0
/** A publish of the document, as a new delivery of Sanity's webhook; resolves when it has ended. */
const publish = async (id: string) => {
  deliveries += 1
  expect((await deliverWebhook(site, SECRET, id, `${id}-${deliveries}`)).statusCode).toBe(202)
  await site.publisher.idle()
}
/** An error as Node's fs gives it when the disk is full. */
const diskFull = (syscall: string) =>
  Object.assign(new Error(`ENOSPC: no space left on device, ${syscall}`), { code: 'ENOSPC', syscall })

describe("a build's reason names its cause", () => {
  test('keeps content errors, file:line lines and error messages; drops stack frames', () => {
    const output = [
      'file:///srv/site/lib/content/source.ts:233',
      '      throw new Error(`${file}:${index + 1}: not valid JSON`)',
      '            ^',
      '',
      'Error: studio/seed/dataset.ndjson:20: not valid JSON (Unexpected token)',
      '    at parse (file:///srv/site/lib/content/source.ts:233:13)',
      '    at Array.map (<anonymous>)',
      '    at async contentStep (file:///srv/site/site-build/content-step.ts:40:3)',
      '',
      'Node.js v24.9.0',
    ].join('\n')
    expect(failureReason(output, 'build exited with code 1')).toBe(
      'build exited with code 1: Error: studio/seed/dataset.ndjson:20: not valid JSON (Unexpected token)',
    )
    expect(failureReason('compiling\nstudio/seed/dataset.ndjson:20: not valid JSON\n', 'exit 1')).toBe(
      'exit 1: studio/seed/dataset.ndjson:20: not valid JSON',
    )
    // Content errors alone, as before: each once, no exit.
    const content = 'build: Invalid content: document "a", field "b": Required\n'
    expect(failureReason(content.repeat(2), 'exit 1')).toBe(
      'Invalid content: document "a", field "b": Required',
    )
  })

  test('without a line naming a cause: the last 5 lines, never a stack frame', () => {
    const output = [
      'one',
      'two',
      'three',
      'four',
      'five',
      'six',
      '    at x (y.ts:1:2)',
      '    at z (w.ts:3:4)',
    ]
    expect(failureReason(output.join('\n'), 'exit 1')).toBe('exit 1: two\nthree\nfour\nfive\nsix')
    expect(failureReason('', 'build killed by SIGKILL')).toBe('build killed by SIGKILL')
  })

  test('a full disk says so in words, in the output or a step of the publisher', () => {
    expect(
      failureReason('rendering\nError: ENOSPC: no space left on device, write\n    at x (y:1:2)\n', 'exit 1'),
    ).toBe('the disk is full: exit 1: Error: ENOSPC: no space left on device, write')
    expect(stepFailure('putting the build live', diskFull('copyfile'))).toBe(
      'the disk is full: putting the build live: ENOSPC: no space left on device, copyfile',
    )
    expect(stepFailure('removing the export', new Error('EACCES: permission denied'))).toBe(
      'removing the export: EACCES: permission denied',
    )
  })

  test('a crashed build (a corrupt dataset line, with its stack) fails with the line, not the stack', async () => {
    site = await startFixture({ webhookSecret: SECRET })
    site.buildEnv.FAKE_BUILD_FAIL = 'throw'
    await publish('review-a')
    const { lastError } = await health()
    expect(lastError.message).toBe(
      'build exited with code 1: Error: studio/seed/dataset.ndjson:20: not valid JSON',
    )
    expect(lastError.message).not.toMatch(/\bat\s/)
  })
})

describe('every failure on the build path is counted, logged and shown', () => {
  test('out/ that cannot be removed: the publish fails with the reason, nothing waits; then it goes live', async () => {
    const parent = path.join(os.tmpdir(), `publisher-export-${process.pid}-${Date.now()}`)
    site = await startFixture({ webhookSecret: SECRET, exportDir: path.join(parent, 'out') })
    const live = (await health()).live.id
    // A file where out/'s folder should be: removing out/ throws (ENOTDIR), even for root.
    rmSync(parent, { recursive: true, force: true })
    writeFileSync(parent, 'not a folder')
    await site.app.listen({ port: 0, host: '127.0.0.1' })
    const origin = `http://127.0.0.1:${(site.app.server.address() as AddressInfo).port}`
    // publish:local sees the failure and says why (it used to wait forever).
    const local = promisify(execFile)(
      NODE,
      ['scripts/publish-local.ts', '--url', origin, '--document', 'review-a'],
      { env: { ...process.env, SANITY_WEBHOOK_SECRET: SECRET }, encoding: 'utf8', timeout: 20_000 },
    )
    await expect(local).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('removing the previous export: ENOTDIR'),
    })
    const status = await health()
    expect(status).toMatchObject({ building: false, queued: false, live: { id: live } })
    expect(status.lastError.message).toMatch(/^removing the previous export: ENOTDIR: not a directory/)
    expect(status.buildCounts).toMatchObject({ succeeded: 1, failed: 1 })
    expect(site.logs).toContainEqual(
      expect.objectContaining({ event: 'build.failed', level: 50, error: status.lastError.message }),
    )
    expect(await badge('review-a')).toMatchObject({ state: 'failed', at: status.lastError.at })
    // The folder is fixed: the next publish goes live, no restart.
    rmSync(parent)
    site.setContent('after the fix')
    await publish('review-a')
    expect(await badge('review-a')).toMatchObject({ state: 'live' })
    expect(await home()).toContain('<h1>after the fix</h1>')
    rmSync(parent, { recursive: true, force: true })
  })

  test('publish:local ends, and says so, when shutdown cancels its build', async () => {
    site = await startFixture({ webhookSecret: SECRET })
    await site.app.listen({ port: 0, host: '127.0.0.1' })
    const origin = `http://127.0.0.1:${(site.app.server.address() as AddressInfo).port}`
    site.buildEnv.FAKE_BUILD_MS = '30000'
    const local = promisify(execFile)(NODE, ['scripts/publish-local.ts', '--url', origin], {
      env: { ...process.env, SANITY_WEBHOOK_SECRET: SECRET },
      encoding: 'utf8',
      // Well inside the test's 60 s: a loaded machine once took over 20 s to start it and see the end.
      timeout: 50_000,
    })
    while (!site.publisher.status().building) await new Promise((resolve) => setTimeout(resolve, 50))
    site.publisher.stop()
    await expect(local).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('the build was cancelled'),
    })
    expect((await health()).lastError).toBeNull()
  })

  test('a full disk when the build goes live: said in words, space given back, the next publish goes live', async () => {
    site = await startFixture({ webhookSecret: SECRET })
    const live = (await health()).live.id
    const putLive = jest.spyOn(site.store, 'putLive').mockRejectedValueOnce(diskFull('copyfile'))
    site.setContent('too big')
    await publish('review-a')
    let status = await health()
    expect(status.live.id).toBe(live)
    expect(status.lastError.message).toBe(
      'the disk is full: putting the build live: ENOSPC: no space left on device, copyfile',
    )
    expect(await badge('review-a')).toMatchObject({ state: 'failed' })
    // The half-written export is gone, and the store holds no leftover.
    expect(existsSync(path.join(site.dir, 'out'))).toBe(false)
    expect(readdirSync(site.store.buildsDir).filter((name) => name.endsWith('.partial'))).toEqual([])
    // Space freed: the same publisher publishes again, nothing sticky left.
    site.setContent('fits now')
    await publish('review-a')
    status = await health()
    expect(status.live.id).not.toBe(live)
    expect(status.buildCounts).toMatchObject({ succeeded: 2, failed: 1 })
    expect(await home()).toContain('<h1>fits now</h1>')
    expect(await badge('review-a')).toMatchObject({ state: 'live', buildId: status.live.id })
    expect(putLive).toHaveBeenCalledTimes(2)
  })

  test('a gate that cannot run fails the publish with its reason', async () => {
    site = await startFixture({
      webhookSecret: SECRET,
      gate: {
        html: true,
        checkHtml: () => Promise.reject(new Error('the HTML checker did not answer')),
      },
    })
    site.setContent('changed') // a changed page: the gate checks its HTML
    await publish('review-a')
    expect((await health()).lastError.message).toBe(
      'running the publish gate: the HTML checker did not answer',
    )
    expect(await badge('review-a')).toMatchObject({ state: 'failed' })
  })
})

describe('space comes back', () => {
  test('a copy that fails half-way leaves no .partial folder (a FIFO cp refuses)', async () => {
    site = await startFixture({ webhookSecret: SECRET })
    const exportDir = path.join(site.dir, 'adopted')
    cpSync((await site.store.liveDir())!, exportDir, { recursive: true })
    writeFileSync(path.join(exportDir, '.build.json'), JSON.stringify({ id: 'half', builtAt: 'now' }))
    execFileSync('mkfifo', [path.join(exportDir, 'zz-pipe')])
    await expect(site.store.putLive(exportDir, 'copy')).rejects.toThrow()
    expect(readdirSync(site.store.buildsDir).filter((name) => name.startsWith('half'))).toEqual([])
  })

  test('a swap that fails keeps nothing of the build in the store; the live one stays', async () => {
    site = await startFixture({ webhookSecret: SECRET })
    const before = readdirSync(site.store.buildsDir).sort()
    const live = await site.store.liveId()
    jest.spyOn(site.store, 'setLive').mockRejectedValueOnce(diskFull('symlink'))
    site.setContent('never live')
    await publish('review-a')
    expect(await site.store.liveId()).toBe(live)
    expect(readdirSync(site.store.buildsDir).sort()).toEqual(before)
    expect((await health()).lastError.message).toMatch(/^the disk is full: putting the build live: ENOSPC/)
  })

  test('a failed publish prunes old builds too: never the live one, nor the last kept ones', async () => {
    site = await startFixture({ webhookSecret: SECRET })
    const source = (await site.store.liveDir())!
    const old = Array.from({ length: 7 }, (_, i) => `20000101-000000-000-000${i}`)
    for (const id of old) {
      cpSync(source, path.join(site.store.buildsDir, id), { recursive: true })
      writeFileSync(
        path.join(site.store.buildsDir, id, '.build.json'),
        JSON.stringify({ id, builtAt: 'then' }),
      )
    }
    mkdirSync(path.join(site.store.buildsDir, 'interrupted.partial'))
    const newest = (await site.store.liveId())!
    await site.store.setLive(old[0]!) // rolled back to the oldest
    site.buildEnv.FAKE_BUILD_FAIL = 'content'
    await publish('review-a')
    expect((await health()).buildCounts.failed).toBe(1)
    expect(readdirSync(site.store.buildsDir).sort()).toEqual(
      [old[0], old[3], old[4], old[5], old[6], newest].sort(),
    )
    expect(site.logs).toContainEqual(expect.objectContaining({ event: 'prune', pruned: [old[2], old[1]] }))
  })

  test('pruning that fails is shown, and changes no outcome: the build is live', async () => {
    site = await startFixture({ webhookSecret: SECRET })
    jest.spyOn(site.store, 'prune').mockRejectedValueOnce(new Error('EBUSY: resource busy or locked, rmdir'))
    site.setContent('live anyway')
    await publish('review-a')
    const status = await health()
    expect(await badge('review-a')).toMatchObject({ state: 'live', buildId: status.live.id })
    expect(status.lastError).toBeNull()
    expect(status.lastCleanupError.message).toBe('pruning old builds: EBUSY: resource busy or locked, rmdir')
    expect(site.logs).toContainEqual(expect.objectContaining({ event: 'cleanup.failed', level: 50 }))
  })
})
