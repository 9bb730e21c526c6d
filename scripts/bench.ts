/**
 * `npm run bench [-- MEASURE...] [--routes /,/sites] [--bytes-against REV [--bytes-only]]`: each measure
 * (below, default `site`) prints its tables and all go to reports/bench.json; exits 1 when a target is missed.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { parseArgs } from 'node:util'
import { measureAgainst } from './bench/against.ts'
import { buildEmptyPage } from './bench/bytes.ts'
import { MISSED, requireBuild, timeBuild, type Tables } from './bench/harness.ts'
import { measureDownloads } from './bench/downloads.ts'
import { measurePublishing } from './bench/publish.ts'

/** Every measure: what it is, and how to run it. */
const MEASURES: Record<string, { about: string; run: () => Promise<Tables> }> = {
  site: {
    about: 'build cold and warm, and the empty Next page',
    run: async () => {
      console.log('bench: cold build (no .next), warm build, the empty page...')
      const ms = { cold: timeBuild({}, ['.next']), warm: timeBuild(), empty: await buildEmptyPage() }
      return {
        'Build (s)': Object.fromEntries(
          Object.entries(ms).map(([kind, took]) => [kind, { s: Math.round(took / 100) / 10 }]),
        ),
      }
    },
  },
  downloads: {
    about:
      'what Chromium downloads per route (--routes: some) at two screens, idle 6 s and on a first interaction, and ahead of the LCP element, beside the empty export; the phone Menu tap and soft navigations (needs a build)',
    run: () => {
      requireBuild()
      return measureDownloads(values.routes?.split(','))
    },
  },
  publish: {
    about: 'publish-to-live, a burst of 50 publishes, load during 5 swaps (real builds)',
    run: measurePublishing,
  },
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'bytes-against': { type: 'string' },
    'bytes-only': { type: 'boolean', default: false },
    routes: { type: 'string' },
  },
})
const against = values['bytes-against']
if (values['bytes-only'] && !against) throw new Error('bench: --bytes-only compares with --bytes-against REV')
const names = values['bytes-only'] ? [] : positionals.length ? positionals : ['site']
const unknown = names.filter((name) => !(name in MEASURES))
if (unknown.length)
  throw new Error(
    `bench: no measure ${unknown.join(', ')}; measures:\n${Object.entries(MEASURES)
      .map(([name, m]) => `  ${name}: ${m.about}`)
      .join('\n')}`,
  )

const report: Record<string, Tables> = {}
for (const name of names) report[name] = await MEASURES[name]!.run()
if (against) {
  requireBuild()
  report.against = await measureAgainst(against)
}
const missed = Object.values(report).flatMap((tables) => Object.keys(tables[MISSED] ?? {}))
for (const tables of Object.values(report))
  for (const [title, rows] of Object.entries(tables)) {
    console.log(`\n${title}:`)
    console.table(rows)
  }
mkdirSync('reports', { recursive: true })
const machine = `${os.availableParallelism()} cores, Node ${process.versions.node}, load ${os
  .loadavg()
  .map((l) => l.toFixed(1))
  .join(' / ')}`
writeFileSync(
  'reports/bench.json',
  JSON.stringify({ measuredAt: new Date().toISOString(), machine, ...report }, null, 2) + '\n',
)
console.log(
  `\n${machine}; wrote reports/bench.json${missed.length ? `\nMISSED:\n  ${missed.join('\n  ')}` : ''}`,
)
if (missed.length) process.exitCode = 1
