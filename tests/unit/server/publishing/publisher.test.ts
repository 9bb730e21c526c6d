/**
 * @jest-environment node
 */
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import autocannon from 'autocannon'
import {
  buildCount,
  deliverWebhook,
  NODE,
  operatorHeaders,
  startFixture,
  type Fixture,
} from '../../helpers/publisherFixture'

jest.setTimeout(60_000)
const SECRET = 'burst-secret'
let site: Fixture
beforeEach(async () => {
  site = await startFixture({ webhookSecret: SECRET })
})
afterEach(() => site.close())

const home = async () => (await site.app.inject({ url: '/' })).body
/** /healthz as the operator's scripts read it (the whole report). */
const health = async () =>
  (await site.app.inject({ url: '/healthz', headers: operatorHeaders(SECRET) })).json()

const publish = (id: string) => deliverWebhook(site, SECRET, id)

test('a burst of 50 signed publishes gives at most 2 builds, and the last content is live', async () => {
  site.buildEnv.FAKE_BUILD_MS = '300'
  const before = buildCount(site)
  const answers: number[] = []
  for (let i = 0; i < 50; i++) {
    if (i === 49) site.setContent('edit 50') // the last publish carries the newest content
    answers.push((await publish(`burst-${i}`)).statusCode)
  }
  expect(answers.every((status) => status === 202)).toBe(true)
  await site.publisher.idle()
  expect(buildCount(site) - before).toBeLessThanOrEqual(2)
  expect(await home()).toContain('<h1>edit 50</h1>')
  const status = await health()
  expect(status).toMatchObject({ building: false, queued: false, lastError: null })
})

test('drafts and release versions start no build: skipped and logged, their documents unchanged', async () => {
  const before = buildCount(site)
  for (const documentId of ['drafts.review-a', 'versions.rSpring.review-a'])
    expect(site.publisher.request({ documentId, type: 'review' })).toBe('skipped')
  expect((await publish('drafts.review-b')).statusCode).toBe(202)
  expect((await publish('versions.rSpring.review-b')).statusCode).toBe(202)
  await site.publisher.idle()
  expect(buildCount(site)).toBe(before)
  expect(site.logs.filter((line) => line.event === 'build.skipped').map((line) => line.documentId)).toEqual([
    'drafts.review-a',
    'versions.rSpring.review-a',
    'drafts.review-b',
    'versions.rSpring.review-b',
  ])
  expect(site.logs.some((line) => line.event === 'build.requested' && line.documentId)).toBe(false)
  for (const id of ['review-a', 'review-b']) expect(site.publisher.documentStates.get(id)).toBeNull()
  // The published document itself still builds.
  expect(site.publisher.request({ documentId: 'review-a' })).toBe('started')
  await site.publisher.idle()
  expect(buildCount(site)).toBe(before + 1)
})

test("each build is told the live build's folder, and its steps' times reach /healthz", async () => {
  const liveBefore = await site.store.liveDir()
  expect(liveBefore).not.toBeNull()
  await publish('phases-1')
  await site.publisher.idle()
  const first = (await health()).lastBuild
  expect(first.phases).toEqual({
    'content check': 7,
    render: 11,
    gate: expect.any(Number),
    swap: expect.any(Number),
  })
  const firstDir = path.join(site.store.buildsDir, first.id)
  expect(readFileSync(path.join(firstDir, 'previous-build.txt'), 'utf8')).toBe(liveBefore)

  await publish('phases-2')
  await site.publisher.idle()
  const second = (await health()).lastBuild
  expect(second.id).not.toBe(first.id)
  expect(readFileSync(path.join(site.store.buildsDir, second.id, 'previous-build.txt'), 'utf8')).toBe(
    firstDir,
  )
})

test('the status is of live builds only: nothing of a preview', async () => {
  expect(Object.keys(site.publisher.status()).sort()).toEqual([
    'building',
    'builds',
    'lastBuild',
    'lastCleanupError',
    'lastError',
    'queued',
  ])
  const report = await health()
  expect(report.preview).toBe('off')
  expect(Object.keys(report).sort()).toEqual([
    'buildCounts',
    'building',
    'builds',
    'lastBuild',
    'lastCleanupError',
    'lastError',
    'live',
    'ok',
    'preview',
    'queued',
    'webhook',
  ])
})

test('a build failing on invalid content leaves the last good site live and names document and field', async () => {
  const live = (await health()).live.id
  site.setContent('broken edit')
  site.buildEnv.FAKE_BUILD_FAIL = 'content'
  site.publisher.request()
  await site.publisher.idle()
  const status = await health()
  expect(status.live.id).toBe(live)
  expect(status.lastError.message).toBe(
    'Invalid content: document "review-osteopath", field "stars": Must be greater than or equal to 5\n' +
      'Invalid content: document "review-osteopath", field "text": Must be at least 20 characters long',
  )
  expect(await home()).toContain('<h1>v1</h1>')
  expect(site.logs).toContainEqual(expect.objectContaining({ event: 'build.failed', level: 50 }))
})

test('a killed build, or one that leaves no complete export, changes nothing visitors see', async () => {
  const live = (await health()).live.id
  for (const failure of ['kill', 'no-marker']) {
    site.setContent(`half-written ${failure}`)
    site.buildEnv.FAKE_BUILD_FAIL = failure
    site.publisher.request()
    await site.publisher.idle()
    const status = await health()
    expect(status.live.id).toBe(live)
    expect(status.lastError.message).toMatch(failure === 'kill' ? /killed by SIGKILL/ : /no complete export/)
    expect(await home()).toContain('<h1>v1</h1>')
  }
  // The next good build goes live.
  delete site.buildEnv.FAKE_BUILD_FAIL
  site.setContent('fixed')
  site.publisher.request()
  await site.publisher.idle()
  expect(await home()).toContain('<h1>fixed</h1>')
})

test('stopping the publisher (shutdown) kills a running build at once: cancelled, not failed; the live site stays', async () => {
  const live = (await health()).live.id
  site.buildEnv.FAKE_BUILD_MS = '30000'
  site.publisher.request({ documentId: 'review-a' })
  await new Promise((resolve) => setTimeout(resolve, 300))
  site.publisher.request({ documentId: 'review-b' }) // queued behind it: never started
  const started = Date.now()
  site.publisher.stop()
  await site.publisher.idle()
  expect(Date.now() - started).toBeLessThan(5000)
  const status = await health()
  expect(status.live.id).toBe(live)
  expect(status.lastError).toBeNull()
  expect(status.buildCounts).toMatchObject({ failed: 0, cancelled: 2 })
  expect(site.logs.filter((line) => line.event === 'build.failed')).toEqual([])
  expect(site.logs.filter((line) => line.event === 'build.cancelled')).toEqual([
    expect.objectContaining({ level: 30, reason: expect.stringMatching(/killed by SIGKILL/) }),
    expect.objectContaining({ level: 30, reason: 'the publisher is shutting down' }),
  ])
  // Their publishes are carried by the next build (after a restart: the next one it runs).
  expect(site.publisher.documentStates.get('review-a')).toMatchObject({ state: 'building' })
  expect(site.publisher.documentStates.startBuild().sort()).toEqual(['review-a', 'review-b'])
})

test('the last 5 builds are kept; rollback puts an earlier one live at once, from the command line', async () => {
  for (let i = 2; i <= 7; i++) {
    site.setContent(`v${i}`)
    site.publisher.request()
    await site.publisher.idle()
  }
  const builds = (await health()).builds as { id: string; live: boolean }[]
  expect(builds).toHaveLength(5)
  expect(builds[0]!.live).toBe(true)
  expect(existsSync(path.join(site.store.buildsDir, builds[0]!.id, 'index.html'))).toBe(true)

  const rollback = (...args: string[]) =>
    execFileSync(NODE, ['scripts/rollback.ts', ...args], {
      env: { ...process.env, SITE_DIR: site.store.root },
      encoding: 'utf8',
    })
  expect(rollback()).toContain(`${builds[1]!.id} is live`)
  expect(await home()).toContain('<h1>v6</h1>')
  rollback(builds[3]!.id)
  expect(await home()).toContain('<h1>v4</h1>')
  expect(rollback('--list')).toContain(`* ${builds[3]!.id}`)
  expect(() => rollback('no-such-build')).toThrow()
  expect(await home()).toContain('<h1>v4</h1>')
})

test('a finished export adopted at start (a copy) goes live the same way a publish does; the export stays', async () => {
  const replaced = await site.store.liveId()
  const exportDir = path.join(site.dir, 'adopted')
  cpSync((await site.store.liveDir())!, exportDir, { recursive: true })
  writeFileSync(
    path.join(exportDir, '.build.json'),
    JSON.stringify({ id: 'adopted-build', builtAt: new Date().toISOString() }),
  )
  const { info, previous } = await site.store.putLive(exportDir, 'copy')
  expect([info.id, previous]).toEqual(['adopted-build', replaced])
  expect(await site.store.liveId()).toBe('adopted-build')
  expect(existsSync(path.join(exportDir, '.build.json'))).toBe(true)
})

test('under load, 5 rebuilds swap in with zero failed requests (autocannon on loopback)', async () => {
  await site.app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = site.app.server.address() as AddressInfo
  const seen = new Set<string>()
  let instance: autocannon.Instance | undefined
  const run = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections: 10,
        duration: 30,
        requests: [
          { path: '/', headers: { 'accept-encoding': 'br' } },
          { path: '/sites' },
          { path: '/_next/static/chunks/app.js', headers: { 'accept-encoding': 'gzip' } },
          { path: '/case-studies/osteopath-lancing' },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    )
  })
  const rebuilds = (async () => {
    for (let i = 1; i <= 5; i++) {
      site.setContent(`load ${i}`)
      site.publisher.request()
      await site.publisher.idle()
      seen.add((await health()).live.id)
    }
    instance?.stop()
  })()
  const [result] = await Promise.all([run, rebuilds])
  expect(seen.size).toBe(5)
  expect(result.requests.total).toBeGreaterThan(500)
  expect(result.errors).toBe(0)
  expect(result.timeouts).toBe(0)
  expect(result.non2xx).toBe(0)
  expect(await home()).toContain('<h1>load 5</h1>')
})

/** A gate whose HTML checker records, in `events`, when it is warmed ('warm') and asked ('check'). */
const recordingGate = (events: string[]) => ({
  html: true,
  warmUp: () => events.push('warm'),
  checkHtml: async () => (events.push('check'), []),
})

describe("each document's publish state, for the Studio", () => {
  const status = (id: string, headers: Record<string, string> = operatorHeaders(SECRET)) =>
    site.app.inject({ url: `/api/publish-status/${id}`, headers })

  test('unknown until published; building while its build runs; then live since the build, with its id', async () => {
    expect((await status('review-a')).json()).toEqual({ state: 'unknown' })
    site.buildEnv.FAKE_BUILD_MS = '400'
    site.setContent('edit a')
    await publish('review-a')
    expect((await status('review-a')).json()).toMatchObject({ state: 'building' })
    await site.publisher.idle()
    const live = (await health()).live
    expect((await status('review-a')).json()).toEqual({
      state: 'live',
      since: live.builtAt,
      buildId: live.id,
    })
    // A draft id is the same document to an editor.
    expect((await status('drafts.review-a')).json()).toMatchObject({ state: 'live', buildId: live.id })
  })

  test('a publish whose page links nowhere is not live: the old page stays, and the state says why', async () => {
    const live = (await health()).live.id
    site.setContent('<a href="/case-studies/nope">Read more</a>')
    await publish('caseStudy-x')
    await site.publisher.idle()
    expect((await health()).live.id).toBe(live)
    expect(await home()).toContain('<h1>v1</h1>')
    // The gate's line names no document here (the fake build writes no page map): the
    // editor learns that, and the whole reason stays in the log.
    expect((await status('caseStudy-x')).json()).toMatchObject({
      state: 'failed',
      reason: "the build failed on no document's content; the whole reason is in the publisher's log",
    })
    expect(JSON.stringify(site.logs)).toContain('/ links to /case-studies/nope, which does not exist')
    // The next good build holds the whole dataset: the document is live again.
    site.setContent('fixed')
    await publish('caseStudy-y')
    await site.publisher.idle()
    expect((await status('caseStudy-x')).json()).toMatchObject({ state: 'live' })
  })

  test("the gate's checker is warmed once the build is past its content check, before its gate", async () => {
    await site.close()
    const events: string[] = []
    site = await startFixture({ webhookSecret: SECRET, gate: recordingGate(events) })
    events.length = 0 // the fixture's first build
    site.setContent('warmed') // a changed page: the gate checks its HTML
    await publish('caseStudy-warm')
    await site.publisher.idle()
    expect(events).toEqual(['warm', 'check'])
  })

  test('a build that fails at its content check starts no checker; one that never says it got past warns', async () => {
    await site.close()
    const events: string[] = []
    site = await startFixture({ webhookSecret: SECRET, gate: recordingGate(events) })
    events.length = 0
    site.buildEnv.FAKE_BUILD_FAIL = 'content'
    site.setContent('invalid')
    await publish('caseStudy-invalid')
    await site.publisher.idle()
    expect(events).toEqual([])
    // A build command that never prints the line: the checker starts at the gate, and the log says why.
    delete site.buildEnv.FAKE_BUILD_FAIL
    site.buildEnv.FAKE_BUILD_QUIET = '1'
    site.setContent('quiet')
    await publish('caseStudy-quiet')
    await site.publisher.idle()
    expect(events).toEqual(['check'])
    expect(site.logs).toContainEqual(
      expect.objectContaining({ event: 'gate.cold', expected: 'build: content checked', level: 40 }),
    )
  })

  test('with the gate off (PUBLISH_GATE=off, for measuring it) the same publish goes live unchecked', async () => {
    await site.close()
    site = await startFixture({ webhookSecret: SECRET, gate: 'off' })
    site.setContent('<a href="/case-studies/nope">Read more</a>')
    await publish('caseStudy-x')
    await site.publisher.idle()
    expect((await status('caseStudy-x')).json()).toMatchObject({ state: 'live' })
    expect(site.logs.some((line) => line.event === 'gate')).toBe(false)
  })

  test('anyone learns the state only; an editor also the lines that name the document', async () => {
    await site.close()
    site = await startFixture({ webhookSecret: SECRET, studioOrigins: ['https://agency.sanity.studio'] })
    site.buildEnv.FAKE_BUILD_FAIL = 'content'
    site.buildEnv.FAKE_BUILD_ERROR = [
      'Invalid content: document "drafts.review-a", field "text": Required',
      'Invalid content: document "caseStudy-b", field "slug": Required',
      'at /srv/site/out/index.html: the export folder /srv/site/out',
    ].join('\n')
    await publish('review-a')
    await publish('review-c')
    await site.publisher.idle()
    const anonymous: Record<string, string>[] = [
      {},
      { 'sec-fetch-site': 'same-origin' },
      { origin: 'https://agency.sanity.studio' },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    ]
    for (const headers of anonymous) {
      const answer = await status('review-a', headers)
      expect(answer.statusCode).toBe(200)
      expect(Object.keys(answer.json()).sort()).toEqual(['at', 'state'])
      expect(answer.body).not.toContain('/srv')
    }
    // CORS for configured Studios only, with the header their proof travels in.
    const studio = await status('review-a', { origin: 'https://agency.sanity.studio' })
    expect(studio.headers['access-control-allow-origin']).toBe('https://agency.sanity.studio')
    const preflight = await site.app.inject({
      method: 'OPTIONS',
      url: '/api/publish-status/review-a',
      headers: { origin: 'https://agency.sanity.studio', 'access-control-request-headers': 'authorization' },
    })
    expect(preflight.statusCode).toBe(204)
    expect(preflight.headers['access-control-allow-headers']).toBe('Authorization')
    expect(
      (await status('review-a', { origin: 'https://evil.example' })).headers['access-control-allow-origin'],
    ).toBeUndefined()

    expect((await status('review-a')).json().reason).toBe(
      'Invalid content: document "drafts.review-a", field "text": Required',
    )
    expect((await status('review-c')).json().reason).toBe('the build failed for another document: review-a')
    // A wrong token is refused, not taken for anonymous.
    expect((await status('review-a', { authorization: 'Bearer nope' })).statusCode).toBe(401)
  })

  test('ids that are not Sanity document ids answer 400, never 500', async () => {
    for (const id of [
      'drafts.',
      'versions.x',
      'drafts.drafts.x',
      'versions.',
      'bad%20id!',
      '.'.repeat(3),
      'a'.repeat(200),
    ])
      expect([id, (await status(encodeURIComponent(id))).statusCode]).toEqual([id, 400])
    expect((await status('versions.rSpring.review-a')).statusCode).toBe(200)
  })
})
