/**
 * Where a build's time goes at a size of dataset: the seed plus N case studies and N×5
 * reviews (copies of its own, scripts/bench/validation.ts `largeDataset`), step by step
 * (content check, media, compile, plan, render, reuse, postbuild, then the publisher's gate and swap):
 *  - a full `npm run build` three ways, each step from the build's `out/.build-phases.json`
 *    and the total its wall time: as from a fresh clone (no `.next/`, `.cache/` nor
 *    `public/media/`), cold (no `.next/`, so it compiles, with the content-keyed caches of
 *    `.cache/` kept, as a CI cache keeps them) and with the compile cached; the load average
 *    after each;
 *  - a case study page's brotli bytes and compression ms at the quality the postbuild gives
 *    it, beside quality 11 (bench/case-study-bytes.ts);
 *  - publish-to-live through the publisher (the gate on, as in production) of one review
 *    changed and of one case study changed: the signed webhook -> `/healthz` shows a new
 *    live build, each step from `/healthz` `lastBuild.phases`; median of `runs` each.
 * Uses `out/` (what it held is put back afterwards), `.next/` and `.cache/` (both removed
 * for the fresh-clone build): nothing else should build in this checkout meanwhile.
 * Several minutes for the seed, ~15 for N = 200, ~25 for N = 1,000.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { listFiles, readBuildPhases } from '../../lib/build-output.ts'
import { DEFAULT_LOCAL_DATASET, parseNdjson, type StoredDocument } from '../../lib/content/source.ts'
import { serveExport } from '../audit/serve.ts'
import { readHealth, sendWebhook } from '../publisher-client.ts'
import { caseStudyBytes, type CaseStudyBytes } from './case-study-bytes.ts'
import { keepExport, SECRET, timingWhole, type Timing } from './publish.ts'
import { largeDataset } from './validation.ts'

/** The steps reported, in order: the build's own, then the publisher's. */
export const SCALE_PHASES = [
  'content check',
  'media',
  'compile',
  'plan',
  'render',
  'reuse',
  'postbuild',
  'gate',
  'swap',
] as const

/** Each step's ms by name, and `total` (the build's wall time, or webhook -> live). */
export type PhaseTimes = Record<string, number>

export type ScaleFigures = {
  /** case studies and reviews added to the seed, and the dataset's documents in all */
  added: { caseStudies: number; reviews: number }
  documents: number
  /** `.html` files in the build's out/ */
  pages: number
  /**
   * ms: a full `npm run build` as from a fresh clone (`.next/`, `.cache/` and `public/media/`
   * removed), cold (`.next/` removed, `.cache/` kept) and with the compile cached
   */
  fullBuild: { fresh: PhaseTimes; cold: PhaseTimes; compiled: PhaseTimes }
  /** The machine's 1, 5 and 15 minute load averages after each of those builds */
  loadAfter: { fresh: number[]; cold: number[]; compiled: number[] }
  /** A case study page on the wire (brotli) at the postbuild's quality and at 11 */
  caseStudyPage: CaseStudyBytes
  /** ms, median and each run, by step and `total`: publish-to-live of one document changed */
  oneReview: Record<string, Timing>
  oneCaseStudy: Record<string, Timing>
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * CPU time (user + system, ms, all cores) of the child processes this process has waited
 * for, and theirs in turn: what a build costs whatever else shares the machine. Linux only.
 * @returns null on another system
 * @throws Error when /proc/self/stat has no cutime and cstime where Linux puts them
 */
function childrenCpuMs(): number | null {
  if (process.platform !== 'linux') return null
  const stat = readFileSync('/proc/self/stat', 'utf8')
  // The fields after the command name (in parentheses, which may hold spaces) start at the
  // 3rd; cutime and cstime are the 16th and 17th, in clock ticks (USER_HZ, 100 a second).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = Number(fields[13]) + Number(fields[14])
  if (!Number.isFinite(ticks)) throw new Error(`/proc/self/stat: expected cutime and cstime, read "${stat}"`)
  return ticks * 10
}

/**
 * Runs `npm run build` on a dataset file.
 * @returns each step's ms (out/.build-phases.json), `total`, the wall time in ms, and
 *   `cpu`, the CPU ms of the build's processes on all cores (Linux; absent elsewhere)
 * @throws Error when the build fails or records no steps
 */
async function fullBuild(dataset: string): Promise<PhaseTimes> {
  const cpuBefore = childrenCpuMs()
  const started = performance.now()
  const result = spawnSync('npm', ['run', 'build'], {
    stdio: 'inherit',
    env: { ...process.env, LOCAL_DATASET: dataset },
  })
  const total = Math.round(performance.now() - started)
  if (result.status !== 0)
    throw new Error(`npm run build failed (${result.signal ?? `exit ${result.status}`})`)
  const phases = await readBuildPhases(path.resolve('out'))
  if (!Object.keys(phases).length) throw new Error('npm run build wrote no out/.build-phases.json')
  const cpuAfter = childrenCpuMs()
  return { ...phases, total, ...(cpuBefore !== null && cpuAfter !== null && { cpu: cpuAfter - cpuBefore }) }
}

/** The 1, 5 and 15 minute load averages now, to two decimals. */
const loadAverage = () => os.loadavg().map((load) => Math.round(load * 100) / 100)

/** How many `.html` files a folder holds, at any depth. */
const htmlFileCount = async (dir: string) =>
  (await listFiles(dir, { filter: (file) => file.endsWith('.html') })).length

/**
 * Publishes one document and waits (polling `/healthz` every 100 ms) until a new build is live.
 * @returns `lastBuild.phases` of that build (ms) and `total`: webhook sent -> new live id, ms
 * @throws Error when the webhook is refused, the build fails, or nothing is live in 30 min
 */
async function publishedToLive(base: string, doc: StoredDocument): Promise<PhaseTimes> {
  const before = await readHealth(base, SECRET)
  const started = performance.now()
  if ((await sendWebhook(base, SECRET, { _id: doc._id, _type: doc._type })) !== 202)
    throw new Error('webhook refused')
  let total: number | undefined
  for (;;) {
    await sleep(100)
    const now = await readHealth(base, SECRET)
    if (now.live && now.live.id !== before.live?.id) {
      total ??= Math.round(performance.now() - started)
      // The swap is visible a moment before the publisher records the build.
      if (now.lastBuild?.id === now.live.id) return { ...now.lastBuild.phases, total }
    } else if (now.buildCounts.failed > before.buildCounts.failed)
      throw new Error(`the build for ${doc._id} failed: ${now.lastError?.message}`)
    if (performance.now() - started > 30 * 60_000) throw new Error(`${doc._id}: nothing went live in 30 min`)
  }
}

/**
 * Keeps what `out/` holds now: a complete build by `keepExport`, anything else (a partial
 * build, nothing) by a copy into `dir`.
 * @returns `restore()`, which puts it back (removes `out/` when it held nothing) and drops the copy
 */
function keepOut(dir: string): { restore: () => void } {
  const out = path.resolve('out')
  if (existsSync(path.join(out, '.build.json'))) {
    const kept = keepExport(out)
    return {
      restore: () => {
        kept.restore()
        kept.drop()
      },
    }
  }
  const copy = path.join(dir, 'out-before')
  if (existsSync(out)) cpSync(out, copy, { recursive: true })
  return {
    restore: () => {
      rmSync(out, { recursive: true, force: true })
      if (existsSync(copy)) cpSync(copy, out, { recursive: true })
    },
  }
}

/** Median and each run of every step and the total, ms. */
const summary = (runs: PhaseTimes[]): Record<string, Timing> =>
  Object.fromEntries(
    [...SCALE_PHASES, 'total'].map((name) => [name, timingWhole(runs.map((run) => run[name] ?? NaN))]),
  )

/**
 * Measures the figures above for the seed plus `caseStudies` case studies and
 * `caseStudies` × 5 reviews. `out/` holds again what it held before afterwards, also when
 * a step fails; the temp folders are removed.
 * @param caseStudies case studies added (0: the seed alone)
 * @param runs publishes of each kind (a review, a case study), one after the other
 * @throws Error when a build or a publish fails (the figures would mean nothing)
 */
export async function measureScale(caseStudies: number, runs = 3): Promise<ScaleFigures> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-scale-'))
  let kept: ReturnType<typeof keepOut> | undefined
  let stop: (() => Promise<void>) | undefined
  try {
    kept = keepOut(dir)
    // A dataset's images are files beside it, as in the seed.
    symlinkSync(path.resolve(path.dirname(DEFAULT_LOCAL_DATASET), 'images'), path.join(dir, 'images'), 'dir')
    const seed = parseNdjson(readFileSync(DEFAULT_LOCAL_DATASET, 'utf8'), DEFAULT_LOCAL_DATASET)
    let documents = largeDataset(seed, caseStudies * 5, caseStudies)
    const file = path.join(dir, 'dataset.ndjson')
    const write = () => writeFileSync(file, documents.map((doc) => JSON.stringify(doc)).join('\n') + '\n')
    write()

    console.log(
      `bench: scale ${caseStudies}: full build, as from a fresh clone (no .next, .cache, public/media)...`,
    )
    for (const folder of ['.next', '.cache', 'public/media']) rmSync(folder, { recursive: true, force: true })
    const fresh = await fullBuild(file)
    const loadAfter = { fresh: loadAverage(), cold: [] as number[], compiled: [] as number[] }
    console.log(`bench: scale ${caseStudies}: full build, cold (no .next; .cache kept)...`)
    rmSync('.next', { recursive: true, force: true })
    const cold = await fullBuild(file)
    loadAfter.cold = loadAverage()
    console.log(`bench: scale ${caseStudies}: full build, compiled...`)
    const compiled = await fullBuild(file)
    loadAfter.compiled = loadAverage()
    const pages = await htmlFileCount('out')
    console.log(`bench: scale ${caseStudies}: a case study page's bytes...`)
    const caseStudyPage = await caseStudyBytes(path.resolve('out'))

    const site = await serveExport(path.resolve('out'), {
      timeoutMs: 300_000,
      env: { SANITY_WEBHOOK_SECRET: SECRET, LOCAL_DATASET: file, PUBLISH_GATE: 'on' },
    })
    stop = site.stop
    const review = seed.find((doc) => doc._type === 'review' && doc.placement === 'both')
    const study = seed.find((doc) => doc._type === 'caseStudy')
    if (!review || !study) throw new Error(`${DEFAULT_LOCAL_DATASET} has no home-page review or case study`)
    /** The dataset with one field of one document changed, written, then published. */
    const change = (doc: StoredDocument, field: string, value: string) => {
      documents = documents.map((each) => (each._id === doc._id ? { ...each, [field]: value } : each))
      write()
      return publishedToLive(site.origin, doc)
    }
    const reviews: PhaseTimes[] = []
    const studies: PhaseTimes[] = []
    for (let run = 1; run <= runs; run++) {
      console.log(
        `bench: scale ${caseStudies}: one review, one case study published (run ${run} of ${runs})...`,
      )
      // Text 20-400 characters, title at most 80: valid, and different each run.
      reviews.push(await change(review, 'text', `${String(review.text).slice(0, 360)} (bench edit ${run})`))
      studies.push(await change(study, 'title', `${String(study.title).slice(0, 60)} (bench edit ${run})`))
    }
    return {
      added: { caseStudies, reviews: caseStudies * 5 },
      documents: documents.length,
      pages,
      fullBuild: { fresh, cold, compiled },
      loadAfter,
      caseStudyPage,
      oneReview: summary(reviews),
      oneCaseStudy: summary(studies),
    }
  } finally {
    await stop?.()
    kept?.restore()
    rmSync(dir, { recursive: true, force: true })
  }
}
