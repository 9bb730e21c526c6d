/** The publisher with real builds: publish-to-live (median of 3), a burst of 50 publishes, load while 5 builds swap in, the home page's bytes. */
import path from 'node:path'
import autocannon from 'autocannon'
import { serveExport } from '../audit/serve.ts'
import { readHealth, waitUntilSettled } from '../publisher-client.ts'
import { median } from './median.ts'
import { keepExport, MISSED, publish, publishToLive, SECRET, type Tables } from './harness.ts'

/** Visitors' pages, as browsers ask for them. */
const VISITOR_REQUESTS = [
  { path: '/', headers: { 'accept-encoding': 'br' } },
  { path: '/case-studies', headers: { 'accept-encoding': 'br' } },
  { path: '/sites', headers: { 'accept-encoding': 'gzip' } },
  { path: '/case-studies/osteopath-lancing', headers: { 'accept-encoding': 'br' } },
]

/** The figures above on the build in out/ (put back afterwards); missed when a request failed during the swaps or the burst took more than 2 builds. */
export async function measurePublishing(): Promise<Tables> {
  const restore = keepExport()
  const site = await serveExport(path.resolve('out'), { env: { SANITY_WEBHOOK_SECRET: SECRET } })
  const base = site.origin
  try {
    console.log('bench: publish-to-live x3...')
    const round = (seconds: number) => Math.round(seconds * 10) / 10
    const toLive: number[] = []
    for (let run = 0; run < 3; run++) toLive.push((await publishToLive(base)) / 1000)
    console.log('bench: burst of 50 publishes...')
    const buildsBefore = (await readHealth(base, SECRET)).buildCounts.succeeded
    const burstStarted = performance.now()
    for (let i = 0; i < 50; i++) await publish(base, { _id: `bench-burst-${i}`, _type: 'review' })
    const builds = (await waitUntilSettled(base, SECRET)).buildCounts.succeeded - buildsBefore
    const burstMs = Math.round(performance.now() - burstStarted)
    console.log('bench: autocannon while 5 rebuilds swap in...')
    let instance: autocannon.Instance | undefined
    const load = new Promise<autocannon.Result>((resolve, reject) => {
      const options = { url: base, connections: 10, duration: 600, requests: VISITOR_REQUESTS }
      instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)))
    })
    for (let i = 0; i < 5; i++) {
      await publish(base, { _id: `bench-swap-${i}`, _type: 'review' })
      await waitUntilSettled(base, SECRET)
    }
    instance!.stop()
    const result = await load
    const failed = result.errors + result.timeouts + result.non2xx
    const bytes = async (encoding: string) =>
      (await fetch(`${base}/`, { headers: { 'accept-encoding': encoding } })).headers.get('content-length')
    const missed = [
      ...(failed > 0 ? [`${failed} requests failed during the swaps`] : []),
      ...(builds > 2 ? [`the burst of 50 took ${builds} builds (at most 2)`] : []),
    ]
    return {
      Publishing: {
        'publish-to-live (s)': { value: `${round(median(toLive))} (${toLive.map(round).join(' / ')})` },
        'burst of 50: builds': { value: builds },
        'burst of 50: until live (ms)': { value: burstMs },
        'requests during 5 swaps: served / failed': { value: `${result.requests.total} / ${failed}` },
        'home page bytes: raw / br / gzip': {
          value: `${await bytes('identity')} / ${await bytes('br')} / ${await bytes('gzip')}`,
        },
      },
      [MISSED]: Object.fromEntries(missed.map((miss) => [miss, {}])),
    }
  } finally {
    await site.stop()
    restore()
  }
}
