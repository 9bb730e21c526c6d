/**
 * Where a build's time goes at a size (the seed plus N case studies and N×5 reviews), step by step: a full
 * build as from a fresh clone, cold (`.cache/` kept) and compiled, with its CPU and the load after it; then
 * publish-to-live of one review and of one case study through the publisher, gate on (median of 3).
 * Uses out/ (put back afterwards), `.next/` and `.cache/`: nothing else should build in this checkout meanwhile.
 */
import { rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { listFiles, readBuildPhases } from '../../lib/build-output.ts'
import type { StoredDocument } from '../../lib/content/source.ts'
import { serveExport } from '../audit/serve.ts'
import { readHealth } from '../publisher-client.ts'
import {
  cell,
  childrenCpuMs,
  homeReview,
  keepExport,
  largeDataset,
  publish,
  SECRET,
  seedFolder,
  sleep,
  timeBuild,
  writeDataset,
  type Tables,
} from './harness.ts'

/** The steps reported, in order: the build's own, then the publisher's. */
const PHASES = ['content check', 'media', 'compile', 'plan', 'render', 'reuse', 'postbuild', 'gate', 'swap']

/** A full `npm run build` on a dataset: each step's ms (out/.build-phases.json), the total, CPU on all cores, the load after. */
async function fullBuild(dataset: string, remove: readonly string[]) {
  const cpuBefore = childrenCpuMs()
  const total = Math.round(timeBuild({ LOCAL_DATASET: dataset }, remove))
  const phases = await readBuildPhases(path.resolve('out'))
  if (!Object.keys(phases).length) throw new Error('npm run build wrote no out/.build-phases.json')
  const load = os.loadavg().map((value) => value.toFixed(2))
  return { ...phases, total, cpu: childrenCpuMs() - cpuBefore, 'load after': load.join(' / ') }
}

/** Publishes one document; once a new build is live, its `lastBuild.phases` (ms) and `total`, webhook -> live. Throws when it fails or nothing is live in 30 min. */
async function publishedToLive(base: string, doc: StoredDocument): Promise<Record<string, number>> {
  const before = await readHealth(base, SECRET)
  const started = performance.now()
  if ((await publish(base, doc)) !== 202) throw new Error('webhook refused')
  let total: number | undefined
  for (; performance.now() - started < 30 * 60_000; await sleep(100)) {
    const now = await readHealth(base, SECRET)
    if (now.live && now.live.id !== before.live?.id) {
      total ??= Math.round(performance.now() - started)
      // The swap shows a moment before the publisher records the build.
      if (now.lastBuild?.id === now.live.id) return { ...now.lastBuild.phases, total }
    } else if (now.buildCounts.failed > before.buildCounts.failed)
      throw new Error(`the build for ${doc._id} failed: ${now.lastError?.message}`)
  }
  throw new Error(`${doc._id}: nothing went live in 30 min`)
}

/** The figures above at the seed plus `caseStudies` (0: the seed alone); out/ holds again what it held, also when a step fails. */
export async function measureScale(caseStudies: number): Promise<Tables> {
  const runs = 3
  const { dir, file, seed } = seedFolder('bench-scale-')
  const restore = keepExport()
  let stop: (() => Promise<void>) | undefined
  try {
    let documents = largeDataset(seed, caseStudies * 5, caseStudies)
    writeDataset(file, documents)
    const builds: Record<string, Record<string, unknown>> = {}
    for (const [kind, removed] of [
      ['fresh clone', ['.next', '.cache', 'public/media']],
      ['cold', ['.next']],
      ['compiled', []],
    ] as const) {
      console.log(`bench: scale ${caseStudies}: full build, ${kind}...`)
      builds[`full build, ${kind}`] = await fullBuild(file, removed)
    }
    const pages = (await listFiles('out', { filter: (name) => name.endsWith('.html') })).length
    const site = await serveExport(path.resolve('out'), {
      timeoutMs: 300_000,
      env: { SANITY_WEBHOOK_SECRET: SECRET, LOCAL_DATASET: file, PUBLISH_GATE: 'on' },
    })
    stop = site.stop
    const study = seed.find((doc) => doc._type === 'caseStudy')!
    const edits: [string, StoredDocument, string, number][] = [
      ['one review', homeReview(seed), 'text', 360],
      ['one case study', study, 'title', 60],
    ]
    const published: Record<string, Record<string, number>[]> = { 'one review': [], 'one case study': [] }
    for (let run = 1; run <= runs; run++)
      for (const [name, doc, field, keep] of edits) {
        console.log(`bench: scale ${caseStudies}: ${name} published (run ${run} of ${runs})...`)
        // Valid (a review's text 20-400 characters, a title at most 80) and different each run.
        const value = `${String(doc[field]).slice(0, keep)} (bench edit ${run})`
        documents = documents.map((each) => (each._id === doc._id ? { ...each, [field]: value } : each))
        writeDataset(file, documents)
        published[name]!.push(await publishedToLive(site.origin, doc))
      }
    const steps = [...PHASES, 'total', 'cpu', 'load after']
    const title = `Where a build's time goes, the seed + ${caseStudies} case studies + ${caseStudies * 5} reviews (${documents.length} documents, ${pages} pages; ms, publishes median of ${runs})`
    return {
      [title]: Object.fromEntries(
        steps.map((step) => [
          step,
          {
            ...Object.fromEntries(Object.entries(builds).map(([kind, times]) => [kind, times[step] ?? ''])),
            ...Object.fromEntries(
              Object.entries(published).map(([name, list]) => [
                name,
                list.some((times) => step in times) ? cell(list.map((times) => times[step] ?? NaN)) : '',
              ]),
            ),
          },
        ]),
      ),
    }
  } finally {
    await stop?.()
    restore()
    rmSync(dir, { recursive: true, force: true })
  }
}
