/**
 * Publisher figures with real builds of the embedded default (used by
 * `npm run bench:publish` and `npm run bench`):
 *  - full build time, cold (no .next cache) and warm;
 *  - publish-to-live: signed webhook -> new build serving (median of 3);
 *  - a burst of 50 signed publishes: builds it caused, time until the last is live;
 *  - autocannon on loopback while 5 rebuilds swap in: requests served and failed;
 *  - the home page's bytes as served: raw, brotli, gzip.
 * Takes several minutes; nothing else should build in this checkout meanwhile.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { serveExport } from '../audit/serve.ts'
import { readHealth, sendWebhook, waitUntilSettled } from '../publisher-client.ts'
import { median } from './median.ts'

/** The webhook secret the measured servers are started with. */
export const SECRET = 'bench-webhook-secret-0123456789abcdef012345'
/** ms -> s, one decimal. */
export const seconds = (ms: number) => Math.round(ms / 100) / 10

/** Runs of one measurement in s: their median and each run (one decimal). */
export type Timing = { median: number; runs: number[] }
/** @param samples runs in ms */
export const timing = (samples: number[]): Timing => ({
  median: seconds(median(samples)),
  runs: samples.map(seconds),
})

/** Runs of a measurement kept in its own unit (ms, MB): their median and each run, rounded. */
export const timingWhole = (samples: number[]): Timing => ({
  median: Math.round(median(samples)),
  runs: samples.map(Math.round),
})

/** Runs `npm run build` and returns how long it took, in ms. @throws when the build fails */
export function timeBuild(): number {
  const started = performance.now()
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'ignore' })
  if (result.status !== 0) throw new Error('npm run build failed')
  return performance.now() - started
}

let delivery = 0
/**
 * Publishes one review, signed with the bench's secret, as Sanity does (or its draft, with a `drafts.` id).
 * @param base the publisher's origin
 * @param id the review's `_id` (default: a new one each call)
 * @returns the HTTP status
 */
export const publishReview = (base: string, id = `bench-${delivery++}`): Promise<number> =>
  sendWebhook(base, SECRET, { _id: id, _type: 'review' })

/**
 * One publish, timed from the webhook to its build serving.
 * @returns ms
 * @throws Error when the webhook is refused or no new build went live
 */
export async function publishToLive(base: string): Promise<number> {
  const before = (await readHealth(base, SECRET)).live?.id
  const started = performance.now()
  if ((await publishReview(base)) !== 202) throw new Error('webhook refused')
  const after = await waitUntilSettled(base, SECRET)
  if (after.live?.id === before) throw new Error('the build did not go live')
  return performance.now() - started
}

/**
 * Keeps the build in `out/` aside, so that each measured server starts from it (a
 * publisher moves each build it makes out of `out/`) and `out/` holds it again after.
 * @returns `restore()`, which puts the kept build back into `out/`, and `drop()`
 */
export function keepExport(exportDir = path.resolve('out')) {
  if (!existsSync(path.join(exportDir, '.build.json')))
    throw new Error(`${exportDir} holds no complete build: run npm run build first`)
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

/** Full build times of the site, cold (no `.next`) and warm, in s. */
export function measureBuilds(): { cold: number; warm: number } {
  console.log('bench: cold build (no .next)...')
  rmSync('.next', { recursive: true, force: true })
  const cold = timeBuild()
  console.log('bench: warm build...')
  const warm = timeBuild()
  return { cold: seconds(cold), warm: seconds(warm) }
}

export type PublishReport = {
  publishToLiveSeconds: Timing
  burst: { accepted: number; builds: number; secondsToLive: number }
  loadDuringSwaps: { swaps: number; served: number; failed: number; requestsPerSecond: number }
  homePageBytes: { raw: number; br: number; gzip: number }
}

/**
 * Starts the publisher on the build in `out/` with a webhook secret, and measures publish-to-live, a burst of 50 publishes and load during 5 swaps.
 */
export async function measurePublishing(): Promise<PublishReport> {
  const kept = keepExport()
  const site = await serveExport(path.resolve('out'), { env: { SANITY_WEBHOOK_SECRET: SECRET } })
  const BASE = site.origin
  try {
    console.log('bench: publish-to-live x3...')
    const publishTimes = [await publishToLive(BASE), await publishToLive(BASE), await publishToLive(BASE)]

    console.log('bench: burst of 50 publishes...')
    const buildsBefore = (await readHealth(BASE, SECRET)).buildCounts.succeeded
    const burstStarted = performance.now()
    const statuses = []
    for (let i = 0; i < 50; i++) statuses.push(await publishReview(BASE))
    const afterBurst = await waitUntilSettled(BASE, SECRET)
    const burst = {
      accepted: statuses.filter((status) => status === 202).length,
      builds: afterBurst.buildCounts.succeeded - buildsBefore,
      secondsToLive: seconds(performance.now() - burstStarted),
    }

    console.log('bench: autocannon while 5 rebuilds swap in...')
    let instance: autocannon.Instance | undefined
    const load = new Promise<autocannon.Result>((resolve, reject) => {
      instance = autocannon(
        {
          url: BASE,
          connections: 10,
          duration: 600,
          requests: [
            { path: '/', headers: { 'accept-encoding': 'br' } },
            { path: '/case-studies' },
            { path: '/sites', headers: { 'accept-encoding': 'gzip' } },
            { path: '/case-studies/osteopath-lancing', headers: { 'accept-encoding': 'br' } },
          ],
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      )
    })
    const swaps = new Set<string>()
    for (let i = 0; i < 5; i++) {
      await publishReview(BASE)
      swaps.add((await waitUntilSettled(BASE, SECRET)).live!.id)
    }
    instance!.stop()
    const result = await load
    const served = result.requests.total
    const failed = result.errors + result.timeouts + result.non2xx

    const bytes = async (encoding?: string) => {
      const response = await fetch(`${BASE}/`, encoding ? { headers: { 'accept-encoding': encoding } } : {})
      return Number(response.headers.get('content-length'))
    }
    const home = { raw: await bytes('identity'), br: await bytes('br'), gzip: await bytes('gzip') }

    return {
      publishToLiveSeconds: timing(publishTimes),
      burst,
      loadDuringSwaps: {
        swaps: swaps.size,
        served,
        failed,
        requestsPerSecond: Math.round(result.requests.average),
      },
      homePageBytes: home,
    }
  } finally {
    await site.stop()
    kept.restore()
    kept.drop()
  }
}
