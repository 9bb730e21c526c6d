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
import { rmSync } from 'node:fs'
import path from 'node:path'
import { encodeSignatureHeader } from '@sanity/webhook'
import autocannon from 'autocannon'
import { serveExport } from '../audit/serve.ts'
import { median } from './median.ts'

/** Origin of the server being measured (set by measurePublishing). */
let BASE = ''
const SECRET = 'bench-secret'
/** ms -> s, one decimal. */
export const seconds = (ms: number) => Math.round(ms / 100) / 10

/** Runs `npm run build` and returns how long it took, in ms. @throws when the build fails */
export function timeBuild(): number {
  const started = performance.now()
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'ignore' })
  if (result.status !== 0) throw new Error('npm run build failed')
  return performance.now() - started
}

type Health = {
  live: { id: string } | null
  building: boolean
  queued: boolean
  buildCounts: { succeeded: number; failed: number }
}
const health = async (): Promise<Health> => (await fetch(`${BASE}/healthz`)).json() as Promise<Health>

let delivery = 0
async function publish(): Promise<number> {
  const body = JSON.stringify({ _id: `bench-${delivery}`, _type: 'review' })
  const response = await fetch(`${BASE}/webhooks/sanity`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'idempotency-key': `bench-${delivery++}`,
      'sanity-webhook-signature': await encodeSignatureHeader(body, Date.now(), SECRET),
    },
    body,
  })
  return response.status
}

async function settled(): Promise<Health> {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    const now = await health()
    if (!now.building && !now.queued) return now
  }
}

async function publishToLive(): Promise<number> {
  const before = (await health()).live?.id
  const started = performance.now()
  if ((await publish()) !== 202) throw new Error('webhook refused')
  const after = await settled()
  if (after.live?.id === before) throw new Error('the build did not go live')
  return performance.now() - started
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
  publishToLiveSeconds: { median: number; runs: number[] }
  burst: { accepted: number; builds: number; secondsToLive: number }
  loadDuringSwaps: { swaps: number; served: number; failed: number; requestsPerSecond: number }
  homePageBytes: { raw: number; br: number; gzip: number }
}

/**
 * Starts the publisher on the current `out/` (or builds first) with a webhook secret,
 * and measures publish-to-live, a burst of 50 publishes and load during 5 swaps.
 */
export async function measurePublishing(): Promise<PublishReport> {
  const site = await serveExport(path.resolve('out'), {
    timeoutMs: 600_000, // builds first when out/ holds no complete build
    env: { SANITY_WEBHOOK_SECRET: SECRET },
  })
  BASE = site.origin
  try {
    console.log('bench: publish-to-live x3...')
    const publishTimes = [await publishToLive(), await publishToLive(), await publishToLive()]

    console.log('bench: burst of 50 publishes...')
    const buildsBefore = (await health()).buildCounts.succeeded
    const burstStarted = performance.now()
    const statuses = []
    for (let i = 0; i < 50; i++) statuses.push(await publish())
    const afterBurst = await settled()
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
            { path: '/case-studies/Osteopath%20Lancing', headers: { 'accept-encoding': 'br' } },
          ],
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      )
    })
    const swaps = new Set<string>()
    for (let i = 0; i < 5; i++) {
      await publish()
      swaps.add((await settled()).live!.id)
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
      publishToLiveSeconds: { median: seconds(median(publishTimes)), runs: publishTimes.map(seconds) },
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
  }
}
