/**
 * @jest-environment node
 */
import { execFileSync } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { readBuildInfo } from '@/lib/build-output'
import { PublishJournal } from '@/server/publishing/publish-journal'
import { prepareStart } from '@/server/startup'
import { buildCount, FAKE_BUILD, NODE, startFixture, type Fixture } from '../helpers/publisherFixture'

jest.setTimeout(60_000)
let site: Fixture
afterEach(() => site.close())

/**
 * A finished export left in the fixture's `out/`, as `npm run build` (or a build that
 * finished after the publisher was killed) leaves it, with `content` in the home page's <h1>.
 * @returns its build id
 */
async function leaveExport(content: string): Promise<string> {
  const contentFile = path.join(site.dir, 'leftover.txt')
  writeFileSync(contentFile, content)
  execFileSync(NODE, [FAKE_BUILD], {
    env: { ...site.buildEnv, FAKE_CONTENT_FILE: contentFile, FAKE_BUILD_LOG: '' },
  })
  return (await readBuildInfo(path.join(site.dir, 'out')))!.id
}

const start = () =>
  prepareStart({
    store: site.store,
    publisher: site.publisher,
    exportDir: path.join(site.dir, 'out'),
    log: site.log,
  })
const home = async () => (await site.app.inject({ url: '/' })).body

test('with a build live, it serves at once; a leftover out/ goes live only after the gate, in the background', async () => {
  site = await startFixture()
  const live = await site.store.liveId()
  const leftover = await leaveExport('from npm run build')
  const started = await start()
  expect(started.live).toBe(live)
  const gatesBefore = site.logs.filter((line) => line.event === 'gate').length
  await started.afterListening()
  expect(site.logs.filter((line) => line.event === 'gate').length).toBe(gatesBefore + 1)
  expect(await site.store.liveId()).toBe(leftover)
  expect(await home()).toContain('<h1>from npm run build</h1>')
})

test('a leftover out/ with a broken link is not put live: the live build stays, and the log and /healthz say why', async () => {
  site = await startFixture()
  const live = await site.store.liveId()
  await leaveExport('<a href="/case-studies/nope">Read more</a>')
  const started = await start()
  await started.afterListening()
  expect(await site.store.liveId()).toBe(live)
  expect(await home()).toContain('<h1>v1</h1>')
  expect(site.logs).toContainEqual(
    expect.objectContaining({
      event: 'adopt.refused',
      problems: ['/ links to /case-studies/nope, which does not exist'],
    }),
  )
  expect(site.publisher.status().lastError?.message).toMatch(/did not pass the publish gate/)
})

test('with nothing live, a leftover out/ with a broken link is not served: the site is built first', async () => {
  site = await startFixture({}, false)
  const leftover = await leaveExport('<a href="/case-studies/nope">Read more</a>')
  const started = await start()
  expect(started.live).not.toBe(leftover)
  expect(buildCount(site)).toBe(1)
  expect(await home()).toContain('<h1>v1</h1>')
})

test('with nothing live, a good leftover out/ is checked (links only) before serving; nothing is built', async () => {
  let htmlChecks = 0
  site = await startFixture(
    {
      gate: {
        html: true,
        checkHtml: async () => {
          htmlChecks += 1
          return []
        },
      },
    },
    false,
  )
  const leftover = await leaveExport('from npm run build')
  const started = await start()
  expect(started.live).toBe(leftover)
  expect(buildCount(site)).toBe(0)
  expect(htmlChecks).toBe(0)
  expect(site.logs).toContainEqual(expect.objectContaining({ event: 'gate', problems: [] }))
  expect(site.logs).toContainEqual(expect.objectContaining({ event: 'startup', gate: 'links' }))
})

test('an unwritable store does not stop the start: the live build is served, the error logged', async () => {
  site = await startFixture()
  const live = await site.store.liveId()
  await leaveExport('cannot be stored')
  jest
    .spyOn(site.store, 'add')
    .mockRejectedValue(Object.assign(new Error('EPERM: operation not permitted, mkdir'), { code: 'EPERM' }))
  const started = await start()
  await expect(started.afterListening()).resolves.toBeUndefined()
  expect(await site.store.liveId()).toBe(live)
  expect((await site.app.inject({ url: '/' })).statusCode).toBe(200)
  expect(site.logs).toContainEqual(
    expect.objectContaining({ event: 'adopt.failed', level: 50, error: expect.stringContaining('EPERM') }),
  )
})

test('with nothing live and nothing that can be made live, the start fails with the reason', async () => {
  site = await startFixture({}, false)
  rmSync(path.join(site.dir, 'out'), { recursive: true, force: true })
  site.buildEnv.FAKE_BUILD_FAIL = 'content'
  await expect(start()).rejects.toThrow(
    /nothing to serve: no build is live and the first build failed: Invalid content: document "review-osteopath"/,
  )
})

test('with nothing live, publishes pending in the journal and the first build are one build', async () => {
  site = await startFixture({}, false)
  // A publish accepted before a stop, never built.
  await new PublishJournal(site.store.root).accept({ documentId: 'review-a', idempotencyKey: 'a' })
  await site.restart()
  const started = await start()
  expect(started.live).toBe(await site.store.liveId())
  expect(buildCount(site)).toBe(1)
  expect(site.logs).toContainEqual(
    expect.objectContaining({ event: 'journal.resume', documents: ['review-a'] }),
  )
  expect(site.publisher.documentStates.get('review-a')).toMatchObject({ state: 'live' })
})

test('a build and the check of a leftover out/ never run at once: each waits for the other', async () => {
  site = await startFixture()
  await leaveExport('left over')
  site.buildEnv.FAKE_BUILD_MS = '800'
  site.setContent('published meanwhile')
  site.publisher.request()
  // The build empties out/ and writes its own there: the leftover is gone, nothing half-written is taken.
  expect(await site.publisher.adopt(path.join(site.dir, 'out'))).toBe('none')
  await site.publisher.idle()
  expect(await home()).toContain('<h1>published meanwhile</h1>')

  const leftover = await leaveExport('left over again')
  const adopted = site.publisher.adopt(path.join(site.dir, 'out'))
  site.publisher.request()
  expect(await adopted).toBe('live')
  expect(await site.store.liveId()).toBe(leftover)
  await site.publisher.idle()
  expect(await home()).toContain('<h1>published meanwhile</h1>')
  expect(site.logs.some((line) => line.event === 'adopt.failed')).toBe(false)
})
