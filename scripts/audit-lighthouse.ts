/**
 * `npm run audit:lighthouse [-- --routes /,/sites --runs 3 --modes simulate,devtools --presets mobile,desktop
 * --transports h2,h1]`: Lighthouse on every visitor page beside the empty Next page of the same few minutes
 * (docs/speed.md, "How it is measured"); writes reports/lighthouse.json and .md, exits 1 when a target is missed.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse, { desktopConfig } from 'lighthouse'
import { readRedirects } from '../lib/build-output.ts'
import { STUDIO_BASE_PATH } from '../lib/studio.ts'
import { EMPTY_PAGE_OUT, buildEmptyPage } from './bench/bytes.ts'
import {
  type LighthouseSample,
  documentTransferBytes,
  FIRST_ROUND_TRIP_BYTES,
  lcpBaselineOf,
  medianSample,
  missedTargets,
  recentBaseline,
  type ThrottlingMode,
} from './audit/lighthouse-targets.ts'
import { htmlFilesOf, NOT_FOUND_ROUTE, routesOf } from './audit/routes.ts'
import { writeScriptlessCopy } from './audit/scriptless-copy.ts'
import { serveExport } from './audit/serve.ts'
import { startTlsProxy } from './audit/tls-proxy.ts'

const { values: args } = parseArgs({
  options: {
    routes: { type: 'string' },
    runs: { type: 'string', default: '3' },
    modes: { type: 'string', default: 'simulate,devtools' },
    presets: { type: 'string', default: 'mobile,desktop' },
    transports: { type: 'string', default: 'h2,h1' },
  },
})
const runs = Number(args.runs)
type Preset = 'mobile' | 'desktop'

async function measure(url: string, preset: Preset, mode: ThrottlingMode): Promise<LighthouseSample> {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      // The h2 transport's certificate is self-signed for this run.
      '--ignore-certificate-errors',
    ],
  })
  try {
    const result = await lighthouse(
      url,
      { port: chrome.port, output: 'json', logLevel: 'error', throttlingMethod: mode },
      preset === 'desktop' ? desktopConfig : undefined,
    )
    const lhr = result!.lhr
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100)
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      lcp: Math.round(audit('largest-contentful-paint')),
      cls: Math.round(audit('cumulative-layout-shift') * 1000) / 1000,
      tbt: Math.round(audit('total-blocking-time')),
      documentBytes: documentTransferBytes(
        (
          lhr.audits['network-requests']?.details as
            { items?: Parameters<typeof documentTransferBytes>[0] } | undefined
        )?.items ?? [],
      ),
    }
  } finally {
    chrome.kill()
  }
}

if (!existsSync('out/.build.json')) throw new Error('no complete build in out/: run npm run build first')
// Rebuilt on every run, so the baseline always has this toolchain (Next, React, finalize).
await buildEmptyPage()
const routes =
  args.routes?.split(',') ??
  // Visitors' pages only: not the booking stand-in (a local placeholder for the external
  // widget) nor /studio (the editors' tool, noindex on purpose).
  routesOf(await htmlFilesOf(path.resolve('out')), {
    // Export files, not URL paths: the Studio is `studio.html`, its deep links answered by it.
    skip: ['booking/', STUDIO_BASE_PATH.slice(1)],
    redirects: (await readRedirects(path.resolve('out')))?.redirects,
  }).map((route) => route.url)
// Lighthouse stops at a document answered 404 (ERRORED_DOCUMENT_REQUEST), so the 404
// page is measured at /404, the same file answered 200; it still skips the a11y/BP/SEO
// 100 targets below (a not-found page is noindex on purpose).
const measuredUrl = (route: string) => (route === NOT_FOUND_ROUTE ? '/404' : route)
const scriptlessDir = path.resolve('.cache/audit-scriptless')
await writeScriptlessCopy(path.resolve('out'), scriptlessDir)
const served = [
  await serveExport(path.resolve('out')),
  await serveExport(EMPTY_PAGE_OUT),
  await serveExport(scriptlessDir),
]
const proxies = await Promise.all(served.map((server) => startTlsProxy(server.origin)))
const originsOf = ([site, empty, scriptless]: { origin: string }[]) => ({
  site: site!.origin,
  empty: empty!.origin,
  scriptless: scriptless!.origin,
})
const origins = { h1: originsOf(served), h2: originsOf(proxies) }

// `scriptless`: the route without scripts, where that is the LCP baseline.
const rows: {
  route: string
  transport: string
  preset: string
  mode: string
  site: LighthouseSample
  empty: LighthouseSample
  scriptless?: LighthouseSample
  misses: string[]
}[] = []
try {
  for (const transport of args.transports.split(',') as (keyof typeof origins)[])
    for (const preset of args.presets.split(',') as Preset[])
      for (const mode of args.modes.split(',') as ThrottlingMode[]) {
        // The empty page alternates with the first route's runs, then is measured once more
        // before each later route; a route is compared with its latest `runs` runs.
        const emptySamples: LighthouseSample[] = []
        for (const route of routes) {
          if (emptySamples.length >= runs)
            emptySamples.push(await measure(`${origins[transport].empty}/`, preset, mode))
          const samples: LighthouseSample[] = []
          const bareSamples: LighthouseSample[] = []
          const withBare = lcpBaselineOf(preset, mode) === 'scriptless'
          for (let i = 0; i < runs; i++) {
            if (emptySamples.length < runs)
              emptySamples.push(await measure(`${origins[transport].empty}/`, preset, mode))
            samples.push(await measure(`${origins[transport].site}${measuredUrl(route)}`, preset, mode))
            if (withBare)
              bareSamples.push(
                await measure(`${origins[transport].scriptless}${measuredUrl(route)}`, preset, mode),
              )
          }
          const s = medianSample(samples)
          const e = recentBaseline(emptySamples, runs)
          const b = withBare ? medianSample(bareSamples) : undefined
          const notFoundPage = route === NOT_FOUND_ROUTE
          const misses = missedTargets({ site: s, empty: e, scriptless: b, preset, mode, notFoundPage })
          rows.push({ route, transport, preset, mode, site: s, empty: e, scriptless: b, misses })
          console.log(
            `${transport} ${preset} ${mode} ${route}: perf ${s.performance} (empty ${e.performance}), LCP ${s.lcp} ms (empty ${e.lcp}${b ? `, without scripts ${b.lcp}` : ''}), CLS ${s.cls}, TBT ${s.tbt} ms${misses.length ? `  MISSED: ${misses.join('; ')}` : ''}${s.documentBytes > FIRST_ROUND_TRIP_BYTES ? `  (HTML ${s.documentBytes} B: past the first round trip, ${FIRST_ROUND_TRIP_BYTES} B)` : ''}`,
          )
        }
      }
} finally {
  for (const server of [...proxies, ...served]) await server.stop()
}

mkdirSync('reports', { recursive: true })
writeFileSync(
  'reports/lighthouse.json',
  JSON.stringify({ measuredAt: new Date().toISOString(), runs, rows }, null, 2) + '\n',
)
const md = [
  `| transport | preset | mode | route | perf (empty) | LCP ms (empty) | LCP ms without scripts (the baseline where given) | CLS | TBT ms (empty) | a11y | BP | SEO | HTML B on the wire (first round trip: ${FIRST_ROUND_TRIP_BYTES}) | misses |`,
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.transport} | ${r.preset} | ${r.mode} | ${r.route} | ${r.site.performance} (${r.empty.performance}) | ${r.site.lcp} (${r.empty.lcp}) | ${r.scriptless?.lcp ?? ''} | ${r.site.cls} | ${r.site.tbt} (${r.empty.tbt}) | ${r.site.accessibility} | ${r.site.bestPractices} | ${r.site.seo} | ${r.site.documentBytes} | ${r.misses.join('; ')} |`,
  ),
].join('\n')
writeFileSync('reports/lighthouse.md', md + '\n')
console.log(`\n${md}\n\naudit:lighthouse: wrote reports/lighthouse.json and .md`)
if (rows.some((row) => row.misses.length)) process.exitCode = 1
