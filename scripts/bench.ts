/**
 * `npm run bench`: the site's figures beside an empty Next.js page built by the same
 * toolchain in the same run, printed as tables and written to reports/bench.json:
 *  - full build time, cold and warm (and the empty page's);
 *  - JavaScript, CSS, HTML and image bytes per route, raw / brotli / gzip, with the
 *    ratio of each route's compressed JavaScript to the empty page's;
 *  - publish-to-live through the publisher, a burst of 50 publishes, load during swaps;
 *  - what the schema validation adds to a build: the seed, and the seed plus 1,000
 *    reviews and 200 case studies;
 *  - what the publish gate adds to publish-to-live: the gate alone (every page, one
 *    changed page), and publish-to-live of a one-document change with and without it;
 *  - editors' preview, rendered on request: the preview server's start, its first page,
 *    a saved draft -> visible (idle, and while a publish builds; the seed and the seed
 *    plus 200 case studies, `--scale N` for another size), the publisher's memory, and
 *    publish-to-live with an editor previewing meanwhile;
 *  - where a build's time goes at scale, the seed plus N case studies and N×5 reviews
 *    (`--scale N`, default 200; 0 is the seed alone): each step (content check, media,
 *    compile, render, postbuild, gate, swap) of a full build as from a fresh clone, cold
 *    (no `.next/`, `.cache/` kept) and with the compile cached, with its CPU time and the
 *    load average, and of publish-to-live of one review and of one case study changed
 *    (median of 3), the build's page count, and a case study page's brotli bytes at its
 *    quality beside 11 (bench/scale.ts);
 *  - with `--bytes-against REV`: each page's bytes in REV's build beside this one's, and
 *    the two builds compared file by file, contents and not only sizes, Next's build id
 *    set aside (bench/export-diff.ts): which files changed at all (e.g. before a change
 *    that should not touch what visitors download; with `--editors-only`, against the
 *    build in out/; with `--bytes-only`, that comparison alone).
 * Takes several minutes (real builds). `--no-publish` skips the publisher parts;
 * `--validation-only` measures the schema validation alone and `--gate-only` the gate
 * alone on the build in out/ (seconds each); `--editors-only` the gate, the
 * publish-to-live figures and the preview's, on the build in out/ (and the preview
 * server's build, `npm run build:preview`); `--preview-content-lake-only` the preview
 * reading the Content Lake (an offline stand-in of Sanity's API) alone;
 * `--preview-isolation-only` what the preview costs visitors (a fixed rate of visitors
 * alone and beside an editor's preview loop, beside four previews of a 13 MB draft; the
 * memory of the publisher and of the preview process; a saved draft to visible) alone,
 * `--pairs N` A/B pairs of it (default 5; `--scale 0` leaves out the second size);
 * `--preview-fair-share-only` an editor's page while another editor asks for 40 share
 * cards at once (median of 3);
 * `--preview-refresh-only` Presentation's refresh of a framed preview in Chromium (one
 * saved change, and changes as fast as typing, to the frame showing them; the page renders
 * asked for, coalesced and as before) at the seed and the seed plus `--scale N` case studies;
 * `--preview-stega-only` click-to-edit per preview route (the texts an editor owns that link
 * to their field; the HTML with stega against without, raw and gzipped) at the seed;
 * `--preview-vetting-only` what vetting a preview's drafts costs as they add up (`--drafts N`
 * chained draft-only case studies, default 400: valid, the last one broken, and again after
 * another draft is saved; in-process, then the whole preview on them when the builds are
 * there); `--scale-publish-only` the figures at scale alone (`--scale N` sets the size; about 15
 * minutes at 200 on 2 cores).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { DEFAULT_LOCAL_DATASET } from '../lib/content/source.ts'
import { routeBytes, type RouteBytes } from './bench/bytes.ts'
import { buildEmptyPage } from './bench/empty-page.ts'
import { measureBuilds, measurePublishing, seconds } from './bench/publish.ts'
import { measureAt } from './bench/bytes-at.ts'
import { compareExports, type ExportDiff } from './bench/export-diff.ts'
import { measureEditorFigures, type EditorFigures } from './bench/editors.ts'
import { measureContentLakePreview } from './bench/preview-content-lake.ts'
import { measurePreviewFairShare, type FairShareFigures } from './bench/preview-fair-share.ts'
import { measurePreviewIsolation, type IsolationFigures } from './bench/preview-isolation.ts'
import { measurePreviewRefresh, type PreviewRefreshFigures } from './bench/preview-refresh.ts'
import { measurePreviewStega, printPreviewStega } from './bench/preview-stega.ts'
import { measurePreviewVetting, printPreviewVetting } from './bench/preview-vetting.ts'
import { measureGate, type GateFigures } from './bench/gate.ts'
import { measureValidation, type ValidationFigures } from './bench/validation.ts'
import { measureScale, SCALE_PHASES, type ScaleFigures } from './bench/scale.ts'

const printValidation = (figures: ValidationFigures) => {
  console.log('\nSchema validation added to a build (median of 3, ms):')
  console.table({
    'load packages, compile schema': { documents: '', ms: figures.loadMs },
    seed: figures.seed,
    'seed + 1,000 reviews + 200 case studies': figures.large,
  })
}

const printGate = (figures: GateFigures) => {
  console.log('\nPublish gate (median of 3, ms; the HTML checker where Java runs):')
  console.table({
    [`every page (${figures.pages})`]: {
      links: figures.allPagesLinks,
      'links + HTML': figures.allPagesWithHtml,
    },
    // Links are every page's in both rows; the HTML checker reads the changed pages only.
    'one changed page': { links: figures.onePageLinks, 'links + HTML': figures.onePageWithHtml },
  })
}

/**
 * `--scale N`: case studies added to the seed for the preview's second size and for the
 * figures at scale (which add N×5 reviews too); default 200.
 * @throws Error when N is not a whole number >= 0
 */
function scaleFlag(): number {
  const index = process.argv.indexOf('--scale')
  if (index < 0) return 200
  const value = Number(process.argv[index + 1])
  if (!Number.isInteger(value) || value < 0)
    throw new Error('bench: --scale takes a whole number of case studies')
  return value
}

/**
 * `--pairs N`: A/B pairs of the preview isolation figures (visitors alone, then beside an
 * editor's preview loop); default 5.
 * @throws Error when N is not a whole number >= 1
 */
function pairsFlag(): number {
  const index = process.argv.indexOf('--pairs')
  if (index < 0) return 5
  const value = Number(process.argv[index + 1])
  if (!Number.isInteger(value) || value < 1)
    throw new Error('bench: --pairs takes a whole number of pairs, 1 or more')
  return value
}

/** The figures at scale: a row per step and the total (ms), a column per kind of build. */
const printScale = (figures: ScaleFigures) => {
  const { fresh, cold, compiled } = figures.fullBuild
  const median = (timing: { median: number; runs: number[] } | undefined) =>
    timing ? `${timing.median} (${timing.runs.join(' / ')})` : ''
  console.log(
    `\nWhere a build's time goes: the seed + ${figures.added.caseStudies} case studies + ${figures.added.reviews} reviews` +
      ` (${figures.documents} documents, ${figures.pages} pages); ms, publishes median (each run):`,
  )
  console.table(
    Object.fromEntries(
      [...SCALE_PHASES, 'total'].map((phase) => [
        phase,
        {
          'full build, fresh clone': fresh[phase] ?? '',
          'full build, cold': cold[phase] ?? '',
          'full build, compiled': compiled[phase] ?? '',
          'one review': median(figures.oneReview[phase]),
          'one case study': median(figures.oneCaseStudy[phase]),
        },
      ]),
    ),
  )
  console.log(
    `CPU of each full build, all cores (ms): fresh clone ${fresh.cpu ?? 'n/a'}, cold ${cold.cpu ?? 'n/a'}, compiled ${compiled.cpu ?? 'n/a'}`,
  )
  console.log(
    `Load average (1/5/15 min) after each full build: fresh clone ${figures.loadAfter.fresh.join(' / ')}, ` +
      `cold ${figures.loadAfter.cold.join(' / ')}, compiled ${figures.loadAfter.compiled.join(' / ')} (${os.availableParallelism()} cores)`,
  )
  const page = figures.caseStudyPage
  console.log(
    `\nA case study page on the wire, brotli (median of ${page.sampled} of its ${page.pages} pages; ` +
      `ms: both files compressed on one core):`,
  )
  console.table({
    [`quality ${page.quality} (the build's)`]: page.atQuality,
    'quality 11': page.at11,
  })
}

const printEditors = (figures: EditorFigures) => {
  const { withGate, withoutGate, previewInUse } = figures.publishToLive
  const row = (timing: { median: number; runs: number[] }) => ({
    median: timing.median,
    runs: timing.runs.join(' / '),
  })
  console.log(
    `\nA change to one document (median of ${withGate.runs.length}, s; each run's figures after it):`,
  )
  console.table({
    'publish-to-live, with the gate': row(withGate),
    'publish-to-live, gate off': row(withoutGate),
    'publish-to-live, an editor previewing meanwhile': row(previewInUse),
  })
  console.log("\nEditors' preview, rendered on request (median, ms; MB):")
  console.table({
    'start -> preview server ready (ms)': row(figures.previewStart),
    ...Object.fromEntries(
      figures.preview.flatMap((size) => [
        [`${size.caseStudies} case studies: first preview page (ms)`, row(size.firstPage)],
        [`${size.caseStudies} case studies: saved draft -> visible, idle (ms)`, row(size.draftToVisibleIdle)],
        [
          `${size.caseStudies} case studies: saved draft -> visible, a publish building (ms)`,
          row(size.draftToVisibleBuilding),
        ],
      ]),
    ),
    'publisher, resident (MB; the preview process apart)': row(figures.residentMb),
  })
}

/** What `compareExports` found between REV's build and out/, file by file. */
function printFiles(revision: string, diff: ExportDiff) {
  console.log(
    `\nFiles of ${revision}'s build -> out/: ${diff.identical} identical, ${diff.onlyBuildId} differ only by Next's build id, ${diff.differ.length} differ`,
  )
  for (const [label, files] of [
    ['differ', diff.differ],
    [`only in ${revision}`, diff.onlyBefore],
    ['only in out/', diff.onlyAfter],
  ] as const)
    if (files.length) console.log(`${label}:\n${files.map((file) => `  ${file}`).join('\n')}`)
}

/** Each page's bytes in another revision's build beside this build's; null without the flag. */
const againstFlag = process.argv.indexOf('--bytes-against')
const against = againstFlag > 0 ? process.argv[againstFlag + 1] : undefined
if (againstFlag > 0 && !against)
  throw new Error('--bytes-against needs a git revision, e.g. --bytes-against main~3')
const compareBytes = async (revision: string, now: RouteBytes[]) => {
  console.log(`bench: building ${revision} for its bytes and files...`)
  const { before, files } = await measureAt(revision, async (exportDir) => ({
    before: await routeBytes(exportDir),
    files: await compareExports(exportDir, 'out'),
  }))
  const total = (row: RouteBytes | undefined, key: 'raw' | 'br') =>
    row ? row.js[key] + row.css[key] + row.html[key] + row.images[key] : NaN
  const routes = [...new Set([...before, ...now].map((row) => row.route))].sort()
  const rows = routes.map((route) => {
    const [a, b] = [before.find((row) => row.route === route), now.find((row) => row.route === route)]
    return {
      route,
      before: total(a, 'raw'),
      now: total(b, 'raw'),
      brBefore: total(a, 'br'),
      brNow: total(b, 'br'),
    }
  })
  console.log(`\nBytes per page, ${revision} -> this build (HTML + RSC + JS + CSS + images):`)
  console.table(
    Object.fromEntries(
      rows.map(({ route, ...row }) => [
        route,
        {
          [`raw ${revision}`]: row.before,
          'raw now': row.now,
          [`br ${revision}`]: row.brBefore,
          'br now': row.brNow,
          // Brotli sizes move by a few bytes with Next's random build id; raw bytes do not.
          'raw change': row.now - row.before,
        },
      ]),
    ),
  )
  printFiles(revision, files)
  return { revision, rows, files }
}

/** The `--…-only` modes measure the build in out/ as it is. */
const requireBuild = () => {
  if (!existsSync('out/.build.json')) throw new Error('out/ holds no complete build: run npm run build first')
}

const printContentLakePreview = (figures: Awaited<ReturnType<typeof measureContentLakePreview>>) => {
  console.log("\nEditors' preview with the Content Lake (the offline stand-in of Sanity's API; ms):")
  console.table({
    'first preview page': { median: figures.firstPage, runs: '' },
    'draft written through the API -> visible': {
      median: figures.draftToVisible.median,
      runs: figures.draftToVisible.runs.join(' / '),
    },
  })
}

const printIsolation = (figures: IsolationFigures) => {
  console.log(
    `\nVisitors beside editors' preview (its own process; ${figures.rate} requests/s, median of A/B runs, ms):`,
  )
  const row = (load: IsolationFigures['alone'] | IsolationFigures['bigDraft']['visitors']) => ({
    p50: load.p50,
    p99: load.p99,
    slowest: load.max,
    requests: load.requests,
    failed: load.failed,
  })
  console.table({
    'visitors alone': { ...row(figures.alone), 'p99 runs': figures.alone.runs.join(' / ') },
    "with an editor's preview loop": {
      ...row(figures.withEditor),
      'p99 runs': figures.withEditor.runs.join(' / '),
    },
    'with the loop sent straight to the preview': {
      ...row(figures.direct),
      'p99 runs': figures.direct.runs.join(' / '),
    },
    [`while 4 previews of a ${figures.bigDraft.draftMb} MB draft render`]: row(figures.bigDraft.visitors),
  })
  console.log(
    `p99 with the editor / alone: ${figures.p99Ratio}x, median of the pairs' ${figures.p99Ratios.join(' / ')} (target at most 1.2x); the editor's loop got ` +
      `${figures.editorPages} pages a run, ${figures.editorFailed} failed; sent straight to the preview ` +
      `(no publisher in its path, the floor of any hand-off): ${figures.p99RatioDirect}x`,
  )
  console.log(
    `The hand-off, the editor's loop alone: the publisher spends ${figures.handOff.cpuMsPerPage} ms of CPU a preview page, ` +
      `${figures.handOff.kbPerPage} KB a page on the wire`,
  )
  const big = figures.bigDraft
  console.log(
    `13 MB draft: publisher peak ${big.publisherPeakMb} MB resident (target under 300), preview process ` +
      `peak ${big.previewPeakMb} MB; the four previews answered ${big.previewStatuses.join(', ')}; ` +
      `the preview answers afterwards: ${big.previewAnswersAfter ? 'yes' : 'NO'}`,
  )
  console.table(
    Object.fromEntries(
      figures.draftToVisible.map((size) => [
        `${size.caseStudies} case studies: saved draft -> visible (ms)`,
        { median: size.median, runs: size.runs.join(' / ') },
      ]),
    ),
  )
}

const printFairShare = (figures: FairShareFigures) => {
  console.log(
    `\nAn editor's page while another editor asks for ${figures.burst} share cards at once (ms; median (each run)):`,
  )
  console.table({
    'the page, alone': { ms: figures.alone },
    'the page, beside the burst': {
      ms: `${figures.otherPage.median} (${figures.otherPage.runs.join(' / ')})`,
      statuses: figures.otherPage.statuses.join(' / '),
    },
    'the burst, to its last answer': { ms: figures.burstMs },
  })
  console.log(
    `Target: the page beside the burst in at most 2,000 ms. The burst's answers (last run): ${Object.entries(
      figures.burstStatuses,
    )
      .map(([status, count]) => `${count} x ${status}`)
      .join(', ')}`,
  )
}

const printPreviewRefresh = (figures: PreviewRefreshFigures) => {
  console.log("\nPresentation's refresh of a framed preview (Chromium; ms, or renders; median (each run)):")
  const cell = (runs: { median: number; runs: number[] }) => `${runs.median} (${runs.runs.join(' / ')})`
  console.table(
    Object.fromEntries(
      figures.sizes.flatMap((size) => [
        [
          `${size.caseStudies} case studies, coalesced`,
          {
            'one change -> shown (ms)': cell(size.coalesced.oneChange),
            'typing: last change -> shown (ms)': cell(size.coalesced.typingLastShown),
            'typing: renders': cell(size.coalesced.typingRenders),
          },
        ],
        [
          `${size.caseStudies} case studies, each change rendered (before)`,
          {
            'one change -> shown (ms)': cell(size.eachChange.oneChange),
            'typing: last change -> shown (ms)': cell(size.eachChange.typingLastShown),
            'typing: renders': cell(size.eachChange.typingRenders),
          },
        ],
      ]),
    ),
  )
  console.log(
    `Typing: 20 changes 50 ms apart, each followed by its refresh; target at most 1,000 ms. Load average ` +
      `(1/5/15 min) after each size: ${figures.sizes.map((size) => `${size.caseStudies} case studies ${size.loadAfter.join(' / ')}`).join('; ')} ` +
      `(${os.availableParallelism()} cores)`,
  )
}

if (process.argv.includes('--preview-refresh-only')) {
  requireBuild()
  printPreviewRefresh(await measurePreviewRefresh(3, scaleFlag()))
  process.exit(0)
}

if (process.argv.includes('--preview-stega-only')) {
  requireBuild()
  printPreviewStega(await measurePreviewStega())
  process.exit(0)
}

if (process.argv.includes('--preview-vetting-only')) {
  const index = process.argv.indexOf('--drafts')
  const count = index < 0 ? 400 : Number(process.argv[index + 1])
  if (!Number.isInteger(count) || count < 1) throw new Error('bench: --drafts takes a whole number of drafts')
  printPreviewVetting(await measurePreviewVetting(count))
  process.exit(0)
}

if (process.argv.includes('--preview-isolation-only')) {
  requireBuild()
  printIsolation(await measurePreviewIsolation(3, scaleFlag(), pairsFlag()))
  process.exit(0)
}

if (process.argv.includes('--preview-fair-share-only')) {
  requireBuild()
  printFairShare(await measurePreviewFairShare())
  process.exit(0)
}

if (process.argv.includes('--preview-content-lake-only')) {
  requireBuild()
  printContentLakePreview(await measureContentLakePreview())
  process.exit(0)
}

if (process.argv.includes('--scale-publish-only')) {
  printScale(await measureScale(scaleFlag()))
  process.exit(0)
}

if (process.argv.includes('--editors-only')) {
  requireBuild()
  printGate(await measureGate('out'))
  printEditors(await measureEditorFigures(3, scaleFlag()))
  printIsolation(await measurePreviewIsolation(3, scaleFlag(), pairsFlag()))
  printFairShare(await measurePreviewFairShare())
  printPreviewRefresh(await measurePreviewRefresh(3, scaleFlag()))
  printContentLakePreview(await measureContentLakePreview())
  if (against) await compareBytes(against, await routeBytes('out'))
  process.exit(0)
}

if (process.argv.includes('--bytes-only')) {
  if (!against) throw new Error('--bytes-only compares with --bytes-against REV')
  requireBuild()
  await compareBytes(against, await routeBytes('out'))
  process.exit(0)
}

if (process.argv.includes('--validation-only')) {
  printValidation(await measureValidation(DEFAULT_LOCAL_DATASET))
  process.exit(0)
}
if (process.argv.includes('--gate-only')) {
  requireBuild()
  printGate(await measureGate('out'))
  process.exit(0)
}

const builds = measureBuilds()
const site = await routeBytes('out')
console.log('bench: the empty page...')
const empty = await buildEmptyPage()
const [emptyRow] = (await routeBytes(empty.out)).filter((row) => row.route === '/')
if (!emptyRow) throw new Error('the empty page has no index.html')
const publishing = process.argv.includes('--no-publish') ? null : await measurePublishing()
const validation = await measureValidation(DEFAULT_LOCAL_DATASET)
const gate = await measureGate('out')
const editors = process.argv.includes('--no-publish') ? null : await measureEditorFigures(3, scaleFlag())
const contentLakePreview = editors ? await measureContentLakePreview() : null
const scale = process.argv.includes('--no-publish') ? null : await measureScale(scaleFlag())
const bytesAgainst = against ? await compareBytes(against, site) : null

const kib = (bytes: number) => Math.round(bytes / 102.4) / 10
const table = (rows: RouteBytes[]) =>
  Object.fromEntries(
    rows.map((row) => [
      row.route,
      {
        'JS KiB raw/br/gz': `${kib(row.js.raw)} / ${kib(row.js.br)} / ${kib(row.js.gzip)}`,
        'JS gz ÷ empty': Math.round((row.js.gzip / emptyRow.js.gzip) * 100) / 100,
        'CSS KiB br/gz': `${kib(row.css.br)} / ${kib(row.css.gzip)}`,
        'HTML KiB raw/br/gz': `${kib(row.html.raw)} / ${kib(row.html.br)} / ${kib(row.html.gzip)}`,
        'images KiB br': kib(row.images.br),
        'largest image KiB': kib(row.largestImage),
        'page total KiB br': kib(row.js.br + row.css.br + row.html.br + row.images.br),
      },
    ]),
  )

const report = {
  measuredAt: new Date().toISOString(),
  machine: `${os.cpus().length} cores, Node ${process.versions.node}`,
  buildSeconds: { ...builds, emptyPage: seconds(empty.ms) },
  emptyPage: emptyRow,
  routes: site,
  publishing,
  validation,
  gate,
  editors,
  contentLakePreview,
  scale,
  bytesAgainst,
}
mkdirSync('reports', { recursive: true })
writeFileSync('reports/bench.json', JSON.stringify(report, null, 2) + '\n')
console.log('\nBuild (s):')
console.table(report.buildSeconds)
console.log('\nBytes per route (the empty page first):')
console.table(table([{ ...emptyRow, route: 'EMPTY PAGE' }, ...site]))
if (publishing) {
  console.log('\nPublishing:')
  console.table({
    'publish-to-live, median of 3 (s)': publishing.publishToLiveSeconds.median,
    'burst of 50: builds': publishing.burst.builds,
    'requests during 5 swaps: served / failed': `${publishing.loadDuringSwaps.served} / ${publishing.loadDuringSwaps.failed}`,
  })
}
console.log('bench: wrote reports/bench.json')
printValidation(validation)
printGate(gate)
if (editors) printEditors(editors)
if (contentLakePreview) printContentLakePreview(contentLakePreview)
if (scale) printScale(scale)
