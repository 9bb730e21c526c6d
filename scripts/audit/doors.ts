/**
 * The editors' doors tried as an attacker would, against the publisher `npm start` runs
 * (on the build in `out/`, with strong webhook and preview secrets): open redirects,
 * guessing the preview secret, a preview cookie reused after leaving, another site
 * ending a session, reaching the preview server without an open session (no cookie,
 * a forged one, Next's own draft-mode cookie, a closed session; GET and POST), what
 * anonymous callers learn from the status and health routes, crafted document ids, and
 * whether any secret reached the server's log.
 * Each attempt either holds (the door stayed shut) or got through; the report lists
 * those that got through.
 */
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import {
  HEALTH_PATH,
  PREVIEW_DISABLE_PATH,
  PREVIEW_ENABLE_PATH,
  PREVIEW_PERSPECTIVE_PATH,
  PUBLISH_STATUS_PATH,
} from '../../lib/publisher-routes.ts'
import { serveExport } from './serve.ts'

/** One attempt and whether it got through. */
export type DoorAttempt = { door: string; attempt: string; through: boolean; detail?: string }

/** The whole run: every attempt, and the secret-in-log check over the server's output. */
export type DoorsReport = { attempts: DoorAttempt[]; logLines: number; through: DoorAttempt[] }

/** Redirect targets that a naive check lets off the site (each must land on this origin). */
export const REDIRECTS = [
  '//evil.example/',
  '/\\evil.example',
  '/.//evil.example/',
  '/..//evil.example/',
  '/a/..//evil.example/',
  '/./a/../..//evil.example/',
  '/%2e//evil.example/',
  '/%2e%2e//evil.example/',
  '/.\\/evil.example/',
  '/\\/evil.example/',
  '/\t/evil.example/',
  '/\n/evil.example/',
  'https://evil.example/',
  'http:evil.example',
  '/%5c%5cevil.example/',
  '/\\.\\/evil.example/',
]

/** Ids that are not Sanity document ids (each must answer 400). */
export const CRAFTED_IDS = [
  'drafts.',
  'versions.x',
  'drafts.drafts.x',
  'versions.',
  'drafts.versions.r.x',
  'a..b',
  '.x',
  '-x',
]

/**
 * Runs every attempt (see the module comment).
 * @param exportDir a complete export, default `out/`
 */
export async function runDoorsAudit(exportDir = path.resolve('out')): Promise<DoorsReport> {
  const webhookSecret = randomBytes(32).toString('hex')
  const previewSecret = randomBytes(32).toString('hex')
  const site = await serveExport(exportDir, {
    env: { SANITY_WEBHOOK_SECRET: webhookSecret, SANITY_PREVIEW_SECRET: previewSecret, LOG_LEVEL: 'info' },
  })
  const { origin } = site
  const attempts: DoorAttempt[] = []
  const attempt = (door: string, what: string, through: boolean, detail?: string) =>
    attempts.push({ door, attempt: what, through, ...(detail ? { detail } : {}) })
  const get = (url: string, init: RequestInit = {}) =>
    fetch(`${origin}${url}`, { redirect: 'manual', ...init })
  const enable = (secret: string, redirect = '/') =>
    get(
      `${PREVIEW_ENABLE_PATH}?secret=${encodeURIComponent(secret)}&redirect=${encodeURIComponent(redirect)}`,
    )
  const sessionOf = (answer: Response) => answer.headers.getSetCookie()[0]?.split(';')[0] ?? ''
  /** Whether a request with these headers reads the whole /healthz report. */
  const readsEverything = async (headers: Record<string, string>) =>
    'lastError' in (await (await get(HEALTH_PATH, { headers })).json())
  try {
    for (const redirect of REDIRECTS) {
      const location = (await enable(previewSecret, redirect)).headers.get('location') ?? ''
      const landing = new URL(location, origin)
      attempt(
        'redirect',
        JSON.stringify(redirect),
        landing.origin !== origin || /^\/[/\\]/.test(location),
        location,
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
      return answer.status !== 405 && (html.includes('Leave preview') || /preview server/.test(html))
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

    await get(`${PREVIEW_ENABLE_PATH}?secret=${previewSecret}`, { method: 'POST' })
    await get(`${PREVIEW_ENABLE_PATH}?secret=${previewSecret}&redirect=/`, { method: 'PUT' })
    const statuses: number[] = []
    for (let guess = 0; guess < 60; guess++) statuses.push((await enable(`guess-${guess}`)).status)
    const checked = statuses.filter((status) => status === 401).length
    attempt('guessing', `60 wrong preview secrets: ${checked} checked, the rest 429`, checked > 10)
    attempt('guessing', 'the right secret while locked', (await enable(previewSecret)).status !== 429)
  } finally {
    await site.stop()
  }
  const log = site.output()
  for (const [name, secret] of [
    ['webhook secret', webhookSecret],
    ['preview secret', previewSecret],
  ])
    attempt('log', `the ${name} in the server's log`, log.includes(secret!))
  const guessLines = log.split('\n').filter((line) => /"event":"guess\./.test(line)).length
  attempt('log', `lines about 60 guesses: ${guessLines}`, guessLines > 2)
  return { attempts, logLines: log.split('\n').length, through: attempts.filter((entry) => entry.through) }
}

/** The report as text: one line per door, and each attempt that got through. */
export function formatDoors(report: DoorsReport): string {
  const doors = [...new Set(report.attempts.map((entry) => entry.door))]
  const lines = doors.map((door) => {
    const mine = report.attempts.filter((entry) => entry.door === door)
    return `${door.padEnd(10)} ${mine.length} attempts, ${mine.filter((entry) => entry.through).length} got through`
  })
  lines.push(`all        ${report.attempts.length} attempts, ${report.through.length} got through`)
  for (const entry of report.through)
    lines.push(`  THROUGH: ${entry.door}: ${entry.attempt}${entry.detail ? ` (${entry.detail})` : ''}`)
  return lines.join('\n')
}
