/**
 * What editors' preview costs visitors, now that it renders in a process of its own
 * (server/preview-process.ts), on the build in out/ with the preview build made
 * (`npm run build:preview`):
 *  - visitors at a fixed rate (autocannon's `overallRate`, 400 requests/s over four pages),
 *    alone and with one editor's preview loop running (4 preview requests at a time, one
 *    after another, compressed as a browser asks, from autocannon in a worker thread): p50,
 *    p99 and the slowest request, failed
 *    requests; alternating A/B, `pairs` of each, the median of each figure and of each
 *    pair's p99 ratio (the machine's noise moves a lone run's p99 by 2x); and, after each
 *    pair, the same loop sent straight to the preview process's socket, the publisher out
 *    of its path: what the renders alone cost visitors, the floor of any hand-off;
 *  - what the hand-off costs the publisher: its CPU time per preview page and the bytes
 *    of a page, while the editor's loop runs alone (steadier than a p99 on a busy machine);
 *  - the same load while four previews of a 13 MB draft render (a case study with 20,000
 *    text blocks): visitors' slowest request, the publisher's resident memory (its peak,
 *    sampled every 100 ms) and the preview process's, apart, and whether the preview
 *    answers again afterwards;
 *  - a saved draft to visible in the preview (the draft written to the dataset file -> the
 *    first preview answer that shows it), at the seed and at the seed plus `scale` case
 *    studies: the hop to the preview process included.
 */
import { readFileSync, rmSync } from 'node:fs'
import autocannon from 'autocannon'
import { DEFAULT_LOCAL_DATASET, type StoredDocument } from '../../lib/content/source.ts'
import {
  draftToVisible,
  previewCookie,
  readyPreviewPublisher,
  residentMb,
  seedFolder,
  writeDataset,
} from './editors.ts'
import { median } from './median.ts'
import { keepExport } from './publish.ts'
import { largeDataset } from './validation.ts'

/** Visitors' fixed rate, requests per second (the issue's 300-500). */
const RATE = 400
/** Seconds of load per run. */
const DURATION = 10
/** Visitors' pages, as a visitor's browser asks for them. */
const VISITOR_REQUESTS = [
  { path: '/', headers: { 'accept-encoding': 'br' } },
  { path: '/case-studies', headers: { 'accept-encoding': 'br' } },
  { path: '/sites', headers: { 'accept-encoding': 'gzip' } },
  { path: '/case-studies/osteopath-lancing', headers: { 'accept-encoding': 'br' } },
]

/** One run of visitors' load: latencies in ms and the requests that failed. */
export type LoadFigures = { p50: number; p99: number; max: number; requests: number; failed: number }

export type IsolationFigures = {
  rate: number
  alone: LoadFigures & { runs: number[] }
  withEditor: LoadFigures & { runs: number[] }
  /** p99 with the editor's loop over p99 alone, the median of each A/B pair's (target at most 1.2) */
  p99Ratio: number
  /** each A/B pair's ratio */
  p99Ratios: number[]
  /** the editor's loop sent straight to the preview process: visitors' figures, and p99 over alone's */
  direct: LoadFigures & { runs: number[] }
  p99RatioDirect: number
  /** preview pages the editor's loop got in one run (median), and how many failed */
  editorPages: number
  editorFailed: number
  /** the publisher's CPU ms per preview page it handed over, and a page's bytes on the wire */
  handOff: { cpuMsPerPage: number; kbPerPage: number }
  bigDraft: {
    /** MB of the draft as stored */
    draftMb: number
    visitors: LoadFigures
    /** MB resident at the peak: the publisher's process, and the preview process apart */
    publisherPeakMb: number
    previewPeakMb: number
    /** the four previews' statuses, and whether a preview page answers 200 afterwards */
    previewStatuses: number[]
    previewAnswersAfter: boolean
  }
  /** ms, a saved draft -> visible in the preview, median of `runs`, per dataset size */
  draftToVisible: { caseStudies: number; median: number; runs: number[] }[]
}

/** Resident memory of a process in MB, or 0 when there is none or it ended meanwhile (sampling). */
function residentOrNone(pid: number | undefined): number {
  try {
    return pid ? residentMb(pid) : 0
  } catch {
    return 0
  }
}

/** CPU time a process has used so far, user and system, in ms (Linux /proc, 100 ticks a second). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** Visitors' load at the fixed rate for DURATION seconds. */
function visitors(base: string): Promise<LoadFigures> {
  return new Promise((resolve, reject) =>
    autocannon(
      { url: base, connections: 20, overallRate: RATE, duration: DURATION, requests: VISITOR_REQUESTS },
      (error, result) =>
        error
          ? reject(error)
          : resolve({
              p50: result.latency.p50,
              p99: result.latency.p99,
              max: result.latency.max,
              requests: result.requests.total,
              failed: result.errors + result.timeouts + result.non2xx,
            }),
    ),
  )
}

/**
 * The socket a running preview process listens on (its PREVIEW_SOCKET, Linux /proc).
 * @throws Error when there is no preview process, or it has no PREVIEW_SOCKET
 */
function previewSocket(pid: number | undefined): string {
  const found = pid
    ? readFileSync(`/proc/${pid}/environ`, 'utf8')
        .split('\0')
        .find((entry) => entry.startsWith('PREVIEW_SOCKET='))
    : undefined
  if (!found)
    throw new Error(`bench: no preview process with a PREVIEW_SOCKET in its environment (pid ${pid})`)
  return found.slice('PREVIEW_SOCKET='.length)
}

/** The pages an editor's loop asks for, in turn. */
const EDITOR_PAGES = ['/', '/case-studies', '/sites', '/consultation', '/case-studies/osteopath-lancing']

/**
 * An editor's preview loop for `seconds`: 4 requests at a time, each asking the next page
 * as soon as the last answered, compressed as a browser asks (brotli or gzip). It runs as an
 * autocannon instance in a worker thread of its own, which counts the answers' bytes and
 * decodes nothing: in life the editor's browser is another machine, and here neither
 * decoding its pages nor reading them on the event loop that times visitors' requests
 * should take from the server being measured.
 * @param socketPath the preview process's socket, to send the loop there rather than to the
 *   publisher (the session cookie then matters to nobody)
 * @returns pages answered and how many of them failed
 */
function editorLoop(
  base: string,
  cookie: string,
  seconds: number,
  socketPath?: string,
): Promise<{ answered: number; failed: number; bytes: number }> {
  return new Promise((resolve, reject) =>
    autocannon(
      {
        url: base,
        socketPath,
        connections: 4,
        workers: 1,
        duration: seconds,
        requests: EDITOR_PAGES.map((page) => ({
          path: page,
          headers: { cookie, 'accept-encoding': 'gzip, deflate, br, zstd' },
        })),
      },
      (error, result) =>
        error
          ? reject(error)
          : resolve({
              answered: result.requests.total,
              failed: result.errors + result.timeouts + result.non2xx,
              bytes: result.throughput.total,
            }),
    ),
  )
}

/** The figure-wise median of several runs. */
function medianOf(runs: LoadFigures[]): LoadFigures & { runs: number[] } {
  const of = (key: keyof LoadFigures) => Math.round(median(runs.map((run) => run[key])) * 10) / 10
  return {
    p50: of('p50'),
    p99: of('p99'),
    max: of('max'),
    requests: of('requests'),
    failed: runs.reduce((sum, run) => sum + run.failed, 0),
    runs: runs.map((run) => run.p99),
  }
}

/**
 * A draft of the seed's first case study with `blocks` text blocks in its issue (about
 * 650 bytes each: 20,000 make 13 MB).
 */
function bigDraft(documents: StoredDocument[], blocks: number): StoredDocument {
  const study = documents.find((doc) => doc._type === 'caseStudy')
  if (!study) throw new Error(`${DEFAULT_LOCAL_DATASET} has no case study`)
  const sentence = 'A long draft an editor pasted in, sentence after sentence, to see what the preview does. '
  const issue = Array.from({ length: blocks }, (_, index) => ({
    _type: 'block',
    _key: `big${index}`,
    style: 'normal',
    markDefs: [],
    children: [{ _type: 'span', _key: `big${index}s`, text: `${index}: ${sentence.repeat(6)}`, marks: [] }],
  }))
  return { ...study, _id: `drafts.${study._id}`, issue }
}

/**
 * Measures the figures above on the build in `out/` (which holds it again afterwards).
 * @param scale case studies added to the seed for draft-to-visible's second size
 */
export async function measurePreviewIsolation(runs = 3, scale = 200, pairs = 5): Promise<IsolationFigures> {
  const kept = keepExport()
  const { dir, file, seed } = seedFolder('bench-isolation-')
  writeDataset(file, seed)
  try {
    const site = await readyPreviewPublisher(kept, file)
    let figures: Omit<IsolationFigures, 'draftToVisible'>
    try {
      const cookie = await previewCookie(site.origin)
      // Warm both: the live site's files and the preview's first renders.
      await visitors(site.origin)
      await editorLoop(site.origin, cookie, 3)
      const alone: LoadFigures[] = []
      const withEditor: LoadFigures[] = []
      const direct: LoadFigures[] = []
      const editor: { answered: number; failed: number }[] = []
      console.log("bench: the publisher's CPU per preview page it hands over...")
      const cpuBefore = cpuMs(site.pid)
      const handOffLoop = await editorLoop(site.origin, cookie, DURATION)
      const handOff = {
        cpuMsPerPage: Math.round(((cpuMs(site.pid) - cpuBefore) / handOffLoop.answered) * 100) / 100,
        kbPerPage: Math.round(handOffLoop.bytes / handOffLoop.answered / 102.4) / 10,
      }
      const socket = previewSocket(site.previewPid())
      for (let run = 1; run <= pairs; run++) {
        console.log(
          `bench: visitors alone, with an editor's preview loop, and with it sent straight to the preview (run ${run} of ${pairs})...`,
        )
        alone.push(await visitors(site.origin))
        const [load, loop] = await Promise.all([
          visitors(site.origin),
          editorLoop(site.origin, cookie, DURATION),
        ])
        withEditor.push(load)
        editor.push(loop)
        const [straight] = await Promise.all([
          visitors(site.origin),
          editorLoop(site.origin, cookie, DURATION, socket),
        ])
        direct.push(straight)
      }

      console.log('bench: visitors while four previews of a 13 MB draft render...')
      const draft = bigDraft(seed, 20_000)
      writeDataset(file, [...seed, draft])
      const draftMb = Math.round(Buffer.byteLength(JSON.stringify(draft)) / 1e5) / 10
      const slug = (draft.slug as { current: string }).current
      let publisherPeakMb = 0
      let previewPeakMb = 0
      const sampler = setInterval(() => {
        publisherPeakMb = Math.max(publisherPeakMb, residentOrNone(site.pid))
        previewPeakMb = Math.max(previewPeakMb, residentOrNone(site.previewPid()))
      }, 100)
      const load = visitors(site.origin)
      const previews = Promise.all(
        Array.from({ length: 4 }, async () => {
          const answer = await fetch(`${site.origin}/case-studies/${slug}`, { headers: { cookie } })
          await answer.arrayBuffer()
          return answer.status
        }),
      )
      const [bigLoad, previewStatuses] = await Promise.all([load, previews])
      clearInterval(sampler)
      writeDataset(file, seed)
      let previewAnswersAfter = false
      for (let tries = 0; tries < 120 && !previewAnswersAfter; tries++) {
        previewAnswersAfter = (await fetch(`${site.origin}/sites`, { headers: { cookie } })).status === 200
        if (!previewAnswersAfter) await new Promise((resolve) => setTimeout(resolve, 500))
      }
      figures = {
        rate: RATE,
        alone: medianOf(alone),
        withEditor: medianOf(withEditor),
        p99Ratio: 0,
        p99Ratios: alone.map((run, index) => Math.round((withEditor[index]!.p99 / run.p99) * 100) / 100),
        direct: medianOf(direct),
        p99RatioDirect: median(
          alone.map((run, index) => Math.round((direct[index]!.p99 / run.p99) * 100) / 100),
        ),
        editorPages: median(editor.map((run) => run.answered)),
        editorFailed: editor.reduce((sum, run) => sum + run.failed, 0),
        handOff,
        bigDraft: {
          draftMb,
          visitors: bigLoad,
          publisherPeakMb,
          previewPeakMb,
          previewStatuses,
          previewAnswersAfter,
        },
      }
      figures.p99Ratio = median(figures.p99Ratios)
    } finally {
      await site.stop()
    }

    const draftToVisibleFigures: IsolationFigures['draftToVisible'] = []
    for (const documents of [seed, ...(scale > 0 ? [largeDataset(seed, 0, scale)] : [])]) {
      writeDataset(file, documents)
      const sized = await readyPreviewPublisher(kept, file)
      try {
        const cookie = await previewCookie(sized.origin)
        await (await fetch(`${sized.origin}/`, { headers: { cookie } })).text()
        const samples: number[] = []
        for (let run = 1; run <= runs; run++)
          samples.push(Math.round(await draftToVisible(sized.origin, cookie, file, documents)))
        draftToVisibleFigures.push({
          caseStudies: documents.filter((doc) => doc._type === 'caseStudy').length,
          median: median(samples),
          runs: samples,
        })
      } finally {
        await sized.stop()
      }
    }
    return { ...figures, draftToVisible: draftToVisibleFigures }
  } finally {
    kept.restore()
    kept.drop()
    rmSync(dir, { recursive: true, force: true })
  }
}
