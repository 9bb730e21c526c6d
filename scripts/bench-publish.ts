/**
 * `npm run bench:publish`: the publisher's figures with real builds (see
 * scripts/bench/publish.ts), printed and written to reports/bench-publish.json.
 * Exits 1 when a request failed during the swaps or a burst took more than 2 builds.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { measureBuilds, measurePublishing } from './bench/publish.ts'

const buildSeconds = measureBuilds()
const publishing = await measurePublishing()
const report = {
  measuredAt: new Date().toISOString(),
  machine: `${os.cpus().length} cores, Node ${process.versions.node}`,
  buildSeconds,
  ...publishing,
}
mkdirSync('reports', { recursive: true })
writeFileSync('reports/bench-publish.json', JSON.stringify(report, null, 2) + '\n')
console.table({
  'full build, cold (s)': buildSeconds.cold,
  'full build, warm (s)': buildSeconds.warm,
  'publish-to-live, median of 3 (s)': publishing.publishToLiveSeconds.median,
  'burst of 50: builds': publishing.burst.builds,
  'burst of 50: until live (s)': publishing.burst.secondsToLive,
  'requests during 5 swaps: served': publishing.loadDuringSwaps.served,
  'requests during 5 swaps: failed': publishing.loadDuringSwaps.failed,
  'home page bytes: raw': publishing.homePageBytes.raw,
  'home page bytes: brotli': publishing.homePageBytes.br,
  'home page bytes: gzip': publishing.homePageBytes.gzip,
})
console.log('bench:publish: wrote reports/bench-publish.json')
if (publishing.loadDuringSwaps.failed > 0 || publishing.burst.builds > 2) process.exitCode = 1
