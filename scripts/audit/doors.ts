/**
 * `npm run audit:doors`: the editors' doors (SECURITY.md) tried as an attacker would, against a publisher of its
 * own on the build, with planted `.env*` secrets and a copy of the seed; each attempt holds or gets through.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DEFAULT_LOCAL_DATASET, parseNdjson } from '../../lib/content/source.ts'
import {
  HEALTH_PATH,
  PREVIEW_DISABLE_PATH,
  PREVIEW_ENABLE_PATH,
  PREVIEW_PERSPECTIVE_PATH,
  PUBLISH_STATUS_PATH,
} from '../../lib/publisher-routes.ts'
import { chainAttempts, draftAttempts } from './doors-drafts.ts'
import {
  openSession,
  previewReady,
  sessionOf,
  writeDataset,
  type DoorAttempt,
  type DoorsContext,
} from './doors-kit.ts'
import { hostileImage, mediaAttempts, publishHostileImage } from './doors-media.ts'
import { crashAttempts, fairShareAttempts, journalAttempts, rawAttempts } from './doors-proxy.ts'
import { publisherFolder, secretAttempts } from './doors-secrets.ts'
import { serveExport, type ServedSite } from './serve.ts'
import { timed } from '../bench/harness.ts'

/** Where `npm run audit:doors` (and the e2e run of it, tests/e2e/doors.setup.ts) writes its report. */
export const DOORS_REPORT_FILE = 'reports/audit-doors.json'

/** Every door, in the order the audit tries them. */
export const DOORS =
  'redirect session preview health status ids media secrets drafts stega frames broken proxy share chain guessing journal log'.split(
    ' ',
  )

/** Every attempt, the log's size, those that got through, and each step's ms (`start`: the publisher, its preview and the attempts needing none). */
export type DoorsReport = {
  attempts: DoorAttempt[]
  logLines: number
  through: DoorAttempt[]
  ms: Record<string, number>
}

/** Redirect targets that a naive check lets off the site (each must land on this origin). */
const REDIRECTS = (
  '//evil.example/ /\\evil.example /.//evil.example/ /..//evil.example/ /a/..//evil.example/ ' +
  '/./a/../..//evil.example/ /%2e//evil.example/ /%2e%2e//evil.example/ /.\\/evil.example/ /\\/evil.example/ ' +
  '/\t/evil.example/ /\n/evil.example/ https://evil.example/ http:evil.example /%5c%5cevil.example/ /\\.\\/evil.example/'
).split(' ')

/** Ids that are not Sanity document ids (each must answer 400). */
const CRAFTED_IDS = 'drafts. versions.x drafts.drafts.x versions. drafts.versions.r.x a..b .x -x'.split(' ')

/** Runs every attempt on a complete export (copied: the publish rewrites the copy); throws when the publisher or its preview does not start. */
export async function runDoorsAudit(exportDir = path.resolve('out')): Promise<DoorsReport> {
  const webhookSecret = randomBytes(32).toString('hex')
  const previewSecret = randomBytes(32).toString('hex')
  // A copy of the seed that drafts are written into, with the drawing an editor uploads.
  const datasetDir = mkdtempSync(path.join(os.tmpdir(), 'audit-doors-'))
  const dataset = path.join(datasetDir, 'dataset.ndjson')
  const original = parseNdjson(readFileSync(DEFAULT_LOCAL_DATASET, 'utf8'), DEFAULT_LOCAL_DATASET)
  const seedImages = path.resolve(path.dirname(DEFAULT_LOCAL_DATASET), 'images')
  const hostile = hostileImage(datasetDir, seedImages, original)
  const seed = [...original.map((doc) => (doc._id === hostile.site._id ? hostile.site : doc)), hostile.asset]
  writeDataset(dataset, seed)
  const folder = publisherFolder(process.cwd(), exportDir)
  const siteDir = path.join(datasetDir, 'site')
  const attempts: DoorAttempt[] = []
  const attempt = (door: string, what: string, through: boolean, detail?: string) =>
    attempts.push({ door, attempt: what, through, ...(detail ? { detail } : {}) })
  const timings: Record<string, number> = {}
  let site: ServedSite | undefined
  try {
    const started = performance.now()
    site = await serveExport(folder.exportDir, {
      cwd: folder.dir,
      siteDir,
      timeoutMs: 120_000,
      env: {
        SANITY_WEBHOOK_SECRET: webhookSecret,
        SANITY_PREVIEW_SECRET: previewSecret,
        LOG_LEVEL: 'info',
        LOCAL_DATASET: dataset,
        // The inspector SIGUSR1 opens (doors-secrets.ts) takes a free port, not 9229.
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --inspect-port=0`.trim(),
      },
    })
    const { origin } = site
    const context: DoorsContext = {
      site,
      origin,
      webhookSecret,
      previewSecret,
      cookie: await openSession(origin, previewSecret),
      dataset,
      seed,
      siteDir,
      attempt,
    }
    // The publish builds while the attempts that need no preview run.
    const published = publishHostileImage(context, hostile).catch((error: Error) => ({
      live: false,
      error: error.message,
    }))
    await sessionAttempts(context)
    const otherEditor = await openSession(origin, previewSecret)
    await previewReady(context)
    timings.start = Math.round(performance.now() - started)
    const steps: Record<string, () => Promise<void>> = {
      media: async () => mediaAttempts(context, hostile, await published),
      secrets: () => secretAttempts(context, folder),
      drafts: () => draftAttempts(context),
      proxy: () => rawAttempts(context),
      share: () => fairShareAttempts(context, otherEditor),
      crash: () => crashAttempts(context),
      chain: () => chainAttempts(context),
      guessing: () => guessingAttempts(context),
      journal: () => journalAttempts(context, hostile.site),
    }
    for (const [name, step] of Object.entries(steps)) timings[name] = Math.round(await timed(step))
  } finally {
    await site?.stop()
    rmSync(datasetDir, { recursive: true, force: true })
    rmSync(folder.dir, { recursive: true, force: true })
  }
  const log = site.output()
  for (const [name, secret] of [
    ['webhook secret', webhookSecret],
    ['preview secret', previewSecret],
  ])
    attempt('log', `the ${name} in the server's log`, log.includes(secret!))
  const guessLines = log.split('\n').filter((line) => /"event":"guess\./.test(line)).length
  attempt('log', `lines about 60 guesses: ${guessLines}`, guessLines > 2)
  return {
    attempts,
    logLines: log.split('\n').length,
    through: attempts.filter((entry) => entry.through),
    ms: timings,
  }
}

/** A request to the publisher that follows no redirect, and `/preview/enable` with a secret. */
const client = (origin: string) => {
  const get = (url: string, init: RequestInit = {}) =>
    fetch(`${origin}${url}`, { redirect: 'manual', ...init })
  const enable = (secret: string, redirect = '/') =>
    get(
      `${PREVIEW_ENABLE_PATH}?secret=${encodeURIComponent(secret)}&redirect=${encodeURIComponent(redirect)}`,
    )
  return { get, enable }
}

/** Redirects, sessions, the preview without a session, anonymous health and status, crafted ids: none needs the preview. */
async function sessionAttempts(context: DoorsContext): Promise<void> {
  const { origin, previewSecret, attempt } = context
  const { get, enable } = client(origin)
  /** Whether a request with these headers reads the whole /healthz report. */
  const readsEverything = async (headers: Record<string, string>) =>
    'lastError' in (await (await get(HEALTH_PATH, { headers })).json())
  for (const redirect of REDIRECTS) {
    const answer = await enable(previewSecret, redirect)
    const location = answer.headers.get('location') ?? ''
    const landing = new URL(location, origin)
    // Anything but the redirect (a 429 of the opens' limit) tried nothing: counted as open.
    attempt(
      'redirect',
      JSON.stringify(redirect),
      answer.status !== 303 || landing.origin !== origin || /^\/[/\\]/.test(location),
      answer.status !== 303 ? `answered ${answer.status}, not a redirect: nothing was tried` : location,
    )
  }

  const session = sessionOf(await enable(previewSecret))
  await get(PREVIEW_DISABLE_PATH, { headers: { cookie: session, 'sec-fetch-site': 'same-origin' } })
  attempt(
    'session',
    'a cookie copied before /preview/disable, after it',
    await readsEverything({ cookie: session }),
  )
  const other = sessionOf(await enable(previewSecret))
  for (const fetchSite of ['cross-site', 'same-site'])
    for (const method of ['GET', 'POST']) {
      await get(PREVIEW_DISABLE_PATH, { method, headers: { cookie: other, 'sec-fetch-site': fetchSite } })
      attempt(
        'session',
        `${method} /preview/disable from a ${fetchSite} page`,
        !(await readsEverything({ cookie: other })),
      )
    }
  for (const forged of ['site_preview=on', `site_preview=${encodeURIComponent(`on.${previewSecret}`)}`])
    attempt('session', `forged cookie ${forged.slice(0, 20)}…`, await readsEverything({ cookie: forged }))

  // The preview server: only an open session reaches it, whatever else a request carries.
  const previewed = async (headers: Record<string, string>, method = 'GET') => {
    const answer = await get('/', { method, headers, ...(method === 'POST' ? { body: 'x' } : {}) })
    const html = await answer.text()
    return (
      answer.status !== 405 && (html.includes('Leave preview') || /the preview (is|could|did)/.test(html))
    )
  }
  for (const cookie of [
    '',
    '__prerender_bypass=guessed',
    `site_preview=${encodeURIComponent('forged')}; __prerender_bypass=x`,
    session,
  ])
    for (const method of ['GET', 'POST'])
      attempt(
        'preview',
        `${method} / with ${cookie === session ? 'a closed session' : cookie || 'no cookie'}`,
        await previewed(cookie ? { cookie } : {}, method),
      )
  const perspective = await get(PREVIEW_PERSPECTIVE_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: session },
    body: JSON.stringify({ perspective: 'drafts' }),
  })
  attempt('preview', 'choosing a perspective with a closed session', perspective.status !== 403)

  const anonymous: Record<string, string>[] = [
    {},
    { 'sec-fetch-site': 'same-origin' },
    { origin, 'sec-fetch-site': 'same-origin' },
    { authorization: 'Bearer ' },
  ]
  for (const headers of anonymous) {
    const health = await (await get(HEALTH_PATH, { headers })).json()
    const keys = Object.keys(health).sort().join(',')
    attempt('health', `anonymous ${JSON.stringify(headers)}`, keys !== 'building,live,ok,queued', keys)
    const status = await (await get(`${PUBLISH_STATUS_PATH}/review-osteopath`, { headers })).json()
    attempt('status', `anonymous ${JSON.stringify(headers)}`, 'reason' in status)
  }
  for (const id of CRAFTED_IDS) {
    const answer = await get(`${PUBLISH_STATUS_PATH}/${encodeURIComponent(id)}`)
    attempt('ids', id, answer.status !== 400, String(answer.status))
  }
}

/** Wrong preview secrets until locked out, then the right one (last: it locks this client out). */
async function guessingAttempts(context: DoorsContext): Promise<void> {
  const { origin, previewSecret, attempt } = context
  const { get, enable } = client(origin)
  await get(`${PREVIEW_ENABLE_PATH}?secret=${previewSecret}`, { method: 'POST' })
  await get(`${PREVIEW_ENABLE_PATH}?secret=${previewSecret}&redirect=/`, { method: 'PUT' })
  const statuses: number[] = []
  for (let guess = 0; guess < 60; guess++) statuses.push((await enable(`guess-${guess}`)).status)
  const checked = statuses.filter((status) => status === 401).length
  attempt('guessing', `60 wrong preview secrets: ${checked} checked, the rest 429`, checked > 10)
  attempt('guessing', 'the right secret while locked', (await enable(previewSecret)).status !== 429)
}

/** The report as text: one line per door, and each attempt that got through. */
export function formatDoors(report: DoorsReport): string {
  const doors = [...new Set(report.attempts.map((entry) => entry.door))]
  const lines = doors.map((door) => {
    const mine = report.attempts.filter((entry) => entry.door === door)
    return `${door.padEnd(10)} ${mine.length} attempts, ${mine.filter((entry) => entry.through).length} got through`
  })
  lines.push(`all        ${report.attempts.length} attempts, ${report.through.length} got through`)
  const total = Object.values(report.ms).reduce((sum, ms) => sum + ms, 0)
  const steps = Object.entries(report.ms).map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)}`)
  lines.push(`time       ${(total / 1000).toFixed(0)} s (${steps.join(', ')})`)
  for (const entry of report.through)
    lines.push(`  THROUGH: ${entry.door}: ${entry.attempt}${entry.detail ? ` (${entry.detail})` : ''}`)
  return lines.join('\n')
}
