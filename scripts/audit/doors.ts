/**
 * The editors' doors tried as an attacker would, against the publisher `npm start` runs
 * (on the build in `out/`, with strong webhook and preview secrets): open redirects,
 * guessing the preview secret, a preview cookie reused after leaving, another site
 * ending a session, reaching the preview server without an open session (no cookie,
 * a forged one, Next's own draft-mode cookie, a closed session; GET and POST), what
 * anonymous callers learn from the status and health routes, crafted document ids,
 * drafts written as an attacker would (a script URL, a `data:` URL, a `javascript:` link,
 * HTML-looking text: what reaches the preview's pages and its Content-Security-Policy),
 * and whether any secret reached the server's log.
 * Each attempt either holds (the door stayed shut) or got through; the report lists
 * those that got through.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DEFAULT_LOCAL_DATASET, parseNdjson, type StoredDocument } from '../../lib/content/source.ts'
import {
  HEALTH_PATH,
  PREVIEW_DISABLE_PATH,
  PREVIEW_ENABLE_PATH,
  PREVIEW_PERSPECTIVE_PATH,
  PUBLISH_STATUS_PATH,
} from '../../lib/publisher-routes.ts'
import { readHealth } from '../publisher-client.ts'
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
  // A copy of the seed that the draft attempts write into (its images are files beside it).
  const datasetDir = mkdtempSync(path.join(os.tmpdir(), 'audit-doors-'))
  const dataset = path.join(datasetDir, 'dataset.ndjson')
  const seed = parseNdjson(readFileSync(DEFAULT_LOCAL_DATASET, 'utf8'), DEFAULT_LOCAL_DATASET)
  writeDataset(dataset, seed)
  symlinkSync(
    path.resolve(path.dirname(DEFAULT_LOCAL_DATASET), 'images'),
    path.join(datasetDir, 'images'),
    'dir',
  )
  const site = await serveExport(exportDir, {
    env: {
      SANITY_WEBHOOK_SECRET: webhookSecret,
      SANITY_PREVIEW_SECRET: previewSecret,
      LOG_LEVEL: 'info',
      LOCAL_DATASET: dataset,
    },
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

    await draftAttempts({
      origin,
      webhookSecret,
      cookie: sessionOf(await enable(previewSecret)),
      dataset,
      seed,
      attempt,
    })

    await get(`${PREVIEW_ENABLE_PATH}?secret=${previewSecret}`, { method: 'POST' })
    await get(`${PREVIEW_ENABLE_PATH}?secret=${previewSecret}&redirect=/`, { method: 'PUT' })
    const statuses: number[] = []
    for (let guess = 0; guess < 60; guess++) statuses.push((await enable(`guess-${guess}`)).status)
    const checked = statuses.filter((status) => status === 401).length
    attempt('guessing', `60 wrong preview secrets: ${checked} checked, the rest 429`, checked > 10)
    attempt('guessing', 'the right secret while locked', (await enable(previewSecret)).status !== 429)
  } finally {
    await site.stop()
    rmSync(datasetDir, { recursive: true, force: true })
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

/** Writes documents as an NDJSON dataset file. */
const writeDataset = (file: string, documents: StoredDocument[]) =>
  writeFileSync(file, documents.map((doc) => JSON.stringify(doc)).join('\n') + '\n')

/** A policy's sources for one directive, e.g. `script-src`. */
const sourcesOf = (policy: string, directive: string) =>
  policy
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([name]) => name === directive)
    ?.slice(1) ?? []

/**
 * Drafts written as an attacker with a Studio login would write them, each shown in an
 * open preview session: a `data:` script URL and another site's script in the settings'
 * booking script, a `javascript:` link in a case study's text, HTML-looking text in a
 * review. Each got through if what it carries reaches the page's markup as markup or a
 * URL, or the page's policy allows it; an attempt whose page is not a rendered preview
 * counts as through too (it proved nothing).
 */
async function draftAttempts(options: {
  origin: string
  webhookSecret: string
  cookie: string
  dataset: string
  seed: StoredDocument[]
  attempt: (door: string, what: string, through: boolean, detail?: string) => void
}): Promise<void> {
  const { origin, cookie, dataset, seed, attempt } = options
  const until = Date.now() + 300_000
  while ((await readHealth(origin, options.webhookSecret)).preview !== 'ready') {
    if (Date.now() > until) throw new Error('audit:doors: the preview never got ready')
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  const previewOf = async (url: string) => {
    const answer = await fetch(`${origin}${url}`, { headers: { cookie } })
    const html = await answer.text()
    return {
      html,
      policy: answer.headers.get('content-security-policy') ?? '',
      rendered: answer.status === 200 && html.includes('Leave preview'),
    }
  }
  const settings = seed.find((doc) => doc._id === 'siteSettings')
  const study = seed.find((doc) => doc._type === 'caseStudy')
  const review = seed.find((doc) => doc._type === 'review' && doc.placement === 'both')
  if (!settings || !study || !review)
    throw new Error(`audit:doors: ${DEFAULT_LOCAL_DATASET} lacks a document it drafts`)
  const withDraft = (draft: StoredDocument) => writeDataset(dataset, [...seed, draft])

  const dataUrl = 'data:text/javascript,document.title="pwned"'
  withDraft({ ...settings, _id: 'drafts.siteSettings', bookingScriptUrl: dataUrl })
  const data = await previewOf('/consultation')
  attempt(
    'drafts',
    'a data: script URL in draft settings',
    !data.rendered ||
      data.html.includes('data:text/javascript') ||
      /data:/.test(sourcesOf(data.policy, 'script-src').join(' ')),
  )

  withDraft({ ...settings, _id: 'drafts.siteSettings', bookingScriptUrl: 'https://evil.example/x.js' })
  const script = await previewOf('/consultation')
  attempt(
    'drafts',
    "another site's script in draft settings (runs only once published)",
    !script.rendered ||
      sourcesOf(script.policy, 'script-src').some((source) => source.includes('evil.example')),
    sourcesOf(script.policy, 'script-src').join(' '),
  )
  attempt(
    'drafts',
    "the preview's policy admits scripts a script loads ('strict-dynamic') or any https host",
    /'strict-dynamic'|\shttps:(\s|;|$)/.test(script.policy),
  )

  const slug = (study.slug as { current: string }).current
  const link = { _type: 'link', _key: 'evil', href: 'javascript:alert(document.domain)' }
  withDraft({
    ...study,
    _id: `drafts.${study._id}`,
    issue: [
      {
        _type: 'block',
        _key: 'evil1',
        style: 'normal',
        markDefs: [link],
        children: [{ _type: 'span', _key: 'evil1s', text: 'Click here', marks: ['evil'] }],
      },
    ],
  })
  const scripted = await previewOf(`/case-studies/${encodeURIComponent(slug)}`)
  attempt(
    'drafts',
    'a javascript: link in a draft',
    !scripted.rendered || /href="\s*javascript:/i.test(scripted.html),
  )

  const markup = '<img src=x onerror=alert(1)><script>alert(2)</script>'
  withDraft({ ...review, _id: `drafts.${review._id}`, text: markup })
  const text = await previewOf('/')
  attempt(
    'drafts',
    'HTML-looking text in a draft',
    !text.rendered || text.html.includes(markup) || !text.html.includes('&lt;img src=x onerror=alert(1)&gt;'),
  )
  writeDataset(dataset, seed)
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
