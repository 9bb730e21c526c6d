/** What every bench and the doors audit share: samples and their median, kept builds, datasets, a publisher with its preview. */
import { spawnSync } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DEFAULT_LOCAL_DATASET, parseNdjson, type StoredDocument } from '../../lib/content/source.ts'
import { PREVIEW_ENABLE_PATH } from '../../lib/publisher-routes.ts'
import { serveExport, type ServedSite } from '../audit/serve.ts'
import { readHealth, sendWebhook, waitUntilSettled } from '../publisher-client.ts'
import { median } from './median.ts'

export { median }

/** A measure's tables by title, rows by label (console.table's); the rows of MISSED name the targets it missed. */
export type Tables = Record<string, Record<string, Record<string, unknown>>>
export const MISSED = 'Missed targets'

/** The webhook and preview secrets the benches' publishers start with. */
export const SECRET = 'bench-webhook-secret-0123456789abcdef012345'
export const PREVIEW_SECRET = 'bench-preview-secret-0123456789abcdef012345'

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Runs of one figure: their median and each run, rounded to `digits` decimals. */
export type Timing = { median: number; runs: number[] }
export const timing = (samples: number[], digits = 0): Timing => {
  const round = (value: number) => Math.round(value * 10 ** digits) / 10 ** digits
  return { median: round(median(samples)), runs: samples.map(round) }
}
/** A Timing as one table cell: `median (run / run / run)`. */
export const cell = (figure: Timing) => `${figure.median} (${figure.runs.join(' / ')})`

/** Runs `step` `runs` times one after the other; each run's figure. */
export async function sample(runs: number, step: (run: number) => Promise<number>): Promise<number[]> {
  const figures: number[] = []
  for (let run = 1; run <= runs; run++) figures.push(await step(run))
  return figures
}

/** ms a promise takes. */
export async function timed(step: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  await step()
  return performance.now() - started
}

/**
 * Runs `npm run build` (with more environment), after removing `remove` (e.g. `.next` for a cold build).
 * @returns ms it took
 * @throws Error when the build fails
 */
export function timeBuild(env: Record<string, string> = {}, remove: readonly string[] = []): number {
  for (const folder of remove) rmSync(folder, { recursive: true, force: true })
  const started = performance.now()
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', env: { ...process.env, ...env } })
  if (result.status !== 0)
    throw new Error(`npm run build failed (${result.signal ?? `exit ${result.status}`})`)
  return performance.now() - started
}

/** @throws Error unless out/ holds a complete build */
export function requireBuild() {
  if (!existsSync('out/.build.json')) throw new Error('out/ holds no complete build: run npm run build first')
}

/**
 * Keeps the build in out/ aside (a publisher moves each build it makes out of out/).
 * @returns `restore()`, which puts it back into out/, and `drop()`, which removes the copy
 */
export function keepExport(exportDir = path.resolve('out')) {
  requireBuild()
  const kept = mkdtempSync(path.join(os.tmpdir(), 'bench-export-'))
  cpSync(exportDir, kept, { recursive: true })
  return {
    restore: () => {
      rmSync(exportDir, { recursive: true, force: true })
      cpSync(kept, exportDir, { recursive: true })
    },
    drop: () => rmSync(kept, { recursive: true, force: true }),
  }
}

/**
 * Writes documents as an NDJSON dataset file whole (renamed over it): a preview never reads half a file.
 * @param lines more documents, each already a line of JSON
 */
export function writeDataset(file: string, documents: StoredDocument[], lines: string[] = []): void {
  writeFileSync(
    `${file}.partial`,
    [...documents.map((doc) => JSON.stringify(doc)), ...lines].join('\n') + '\n',
  )
  renameSync(`${file}.partial`, file)
}

/**
 * A temporary folder for a dataset, with the seed's images linked beside it (a dataset's images are files beside it).
 * @returns the folder (the caller removes it), its dataset file's path (not written) and the seed's documents
 */
export function seedFolder(prefix: string): { dir: string; file: string; seed: StoredDocument[] } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix))
  symlinkSync(path.resolve(path.dirname(DEFAULT_LOCAL_DATASET), 'images'), path.join(dir, 'images'), 'dir')
  const seed = parseNdjson(readFileSync(DEFAULT_LOCAL_DATASET, 'utf8'), DEFAULT_LOCAL_DATASET)
  return { dir, file: path.join(dir, 'dataset.ndjson'), seed }
}

/** The seed plus `reviews` reviews and `caseStudies` case studies copied from its own (unique ids, slugs, legacy ids). */
export function largeDataset(seed: StoredDocument[], reviews: number, caseStudies: number): StoredDocument[] {
  const review = seed.find((doc) => doc._type === 'review')!
  const study = seed.find((doc) => doc._type === 'caseStudy')!
  return [
    ...seed,
    ...Array.from({ length: reviews }, (_, i) => ({ ...review, _id: `bench-review-${i}`, order: 100 + i })),
    ...Array.from({ length: caseStudies }, (_, i) => ({
      ...study,
      _id: `bench-case-study-${i}`,
      slug: { _type: 'slug', current: `bench-case-study-${i}` },
      legacyId: `Bench Case Study ${i}`,
      order: 100 + i,
    })),
  ]
}

/** The seed's review shown on the home page. */
export function homeReview(documents: StoredDocument[]): StoredDocument {
  const review = documents.find((doc) => doc._type === 'review' && doc.placement === 'both')
  if (!review) throw new Error(`${DEFAULT_LOCAL_DATASET} has no review shown on the home page`)
  return review
}

/** Resident memory of a process in MB, 0 when it is gone (Linux /proc). */
export function residentMb(pid: number | undefined): number {
  try {
    return Math.round(
      Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024,
    )
  } catch {
    return 0
  }
}

/** CPU ms a process (`self`: its waited-for children) has used, user and system (Linux /proc, 100 ticks a second). */
export function cpuMs(pid: number | 'self', children = false): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const at = children ? 13 : 11
  return (Number(fields[at]) + Number(fields[at + 1])) * 10
}

/** Publishes a document signed with the bench's secret, as Sanity does; the HTTP status. */
export const publish = (base: string, doc: { _id: string; _type: string }) => sendWebhook(base, SECRET, doc)

let delivery = 0
/**
 * One review published, timed from the webhook to its build live.
 * @returns ms
 * @throws Error when the webhook is refused or no new build went live
 */
export async function publishToLive(base: string): Promise<number> {
  const before = (await readHealth(base, SECRET)).live?.id
  const started = performance.now()
  if ((await publish(base, { _id: `bench-${delivery++}`, _type: 'review' })) !== 202)
    throw new Error('webhook refused')
  if ((await waitUntilSettled(base, SECRET)).live?.id === before) throw new Error('the build did not go live')
  return performance.now() - started
}

/**
 * A publisher on the build kept from out/, with the preview on a dataset file, once its preview is ready.
 * @throws Error when the preview fails to start
 */
export async function previewPublisher(
  kept: ReturnType<typeof keepExport>,
  file: string,
): Promise<ServedSite> {
  kept.restore()
  const site = await serveExport(path.resolve('out'), {
    timeoutMs: 300_000,
    env: { SANITY_WEBHOOK_SECRET: SECRET, SANITY_PREVIEW_SECRET: PREVIEW_SECRET, LOCAL_DATASET: file },
  })
  await previewReady(site.origin, SECRET)
  return site
}

/**
 * Waits until the publisher reports its preview ready (through a restart, with `throughRestarts`).
 * @throws Error when it is down (unless `throughRestarts`), or after 5 minutes
 */
export async function previewReady(
  base: string,
  webhookSecret: string,
  throughRestarts = false,
): Promise<void> {
  const timeoutMs = 300_000
  for (const until = Date.now() + timeoutMs; ; await sleep(100)) {
    const state = (await readHealth(base, webhookSecret)).preview
    if (state === 'ready') return
    if (typeof state === 'object' && !throughRestarts) throw new Error(`the preview failed: ${state.failed}`)
    if (Date.now() > until) throw new Error(`the preview was not ready within ${timeoutMs / 1000} s`)
  }
}

/**
 * Opens a preview session as an editor does (`/preview/enable` with the secret).
 * @returns its cookie, `name=value`
 * @throws Error when no session opens
 */
export async function previewCookie(base: string, secret = PREVIEW_SECRET): Promise<string> {
  const answer = await fetch(`${base}${PREVIEW_ENABLE_PATH}?secret=${encodeURIComponent(secret)}`, {
    redirect: 'manual',
  })
  const cookie = answer.headers.getSetCookie()[0]?.split(';')[0]
  if (answer.status !== 303 || !cookie)
    throw new Error(`/preview/enable answered ${answer.status}, not a session`)
  return cookie
}

/**
 * Saves a draft of the home page's review with a new marker, then asks the preview's `/` until it shows.
 * @returns ms from the save to that answer
 */
export async function draftToVisible(
  base: string,
  cookie: string,
  file: string,
  documents: StoredDocument[],
) {
  const review = homeReview(documents)
  const marker = `bench-draft-${Date.now()}-${Math.random().toString(36).slice(2)}`
  const started = performance.now()
  writeDataset(file, [...documents, { ...review, _id: `drafts.${review._id}`, text: marker }])
  for (;;) {
    if ((await (await fetch(`${base}/`, { headers: { cookie } })).text()).includes(marker))
      return performance.now() - started
    if (performance.now() - started > 60_000) throw new Error('the draft never showed in the preview')
  }
}
