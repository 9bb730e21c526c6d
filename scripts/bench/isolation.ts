/**
 * What editors' preview (its own process) costs visitors, on the build in out/ with the preview built: visitors
 * at a fixed rate alone and beside an editor's preview loop (A/B pairs), the loop sent straight to the preview's
 * socket, the publisher's CPU and bytes per preview page, four previews of a 13 MB draft, a saved draft to visible.
 */
import { readFileSync, rmSync } from 'node:fs'
import autocannon from 'autocannon'
import type { StoredDocument } from '../../lib/content/source.ts'
import {
  cell,
  cpuMs,
  draftToVisible,
  keepExport,
  largeDataset,
  median,
  previewCookie,
  previewPublisher,
  residentMb,
  sample,
  seedFolder,
  sleep,
  timing,
  writeDataset,
  type Tables,
} from './harness.ts'
import { VISITOR_REQUESTS } from './publish.ts'

/** Visitors' requests per second, and seconds of load per run. */
const RATE = 400
const DURATION = 10
/** The pages an editor's loop asks for, in turn. */
const EDITOR_PAGES = ['/', '/case-studies', '/sites', '/consultation', '/case-studies/osteopath-lancing']

type Load = { p50: number; p99: number; max: number; requests: number; failed: number; bytes: number }

const run = (options: autocannon.Options): Promise<Load> =>
  new Promise((resolve, reject) =>
    autocannon(options, (error, result) =>
      error
        ? reject(error)
        : resolve({
            p50: result.latency.p50,
            p99: result.latency.p99,
            max: result.latency.max,
            requests: result.requests.total,
            failed: result.errors + result.timeouts + result.non2xx,
            bytes: result.throughput.total,
          }),
    ),
  )

const visitors = (url: string) =>
  run({ url, connections: 20, overallRate: RATE, duration: DURATION, requests: VISITOR_REQUESTS })

/** An editor's preview loop: 4 requests at a time as a browser asks, in a worker thread of its own (decoding nothing). */
const editorLoop = (url: string, cookie: string, duration = DURATION, socketPath?: string) =>
  run({
    url,
    socketPath,
    connections: 4,
    workers: 1,
    duration,
    requests: EDITOR_PAGES.map((page) => ({
      path: page,
      headers: { cookie, 'accept-encoding': 'gzip, deflate, br, zstd' },
    })),
  })

/** The socket the preview process listens on (its PREVIEW_SOCKET). @throws Error when there is none */
function previewSocket(pid: number | undefined): string {
  const entry = pid
    ? readFileSync(`/proc/${pid}/environ`, 'utf8')
        .split('\0')
        .find((line) => line.startsWith('PREVIEW_SOCKET='))
    : undefined
  if (!entry) throw new Error(`bench: no preview process with a PREVIEW_SOCKET (pid ${pid})`)
  return entry.slice('PREVIEW_SOCKET='.length)
}

/** A draft of the seed's first case study with `blocks` text blocks (20,000 make 13 MB). */
function bigDraft(seed: StoredDocument[], blocks: number): StoredDocument {
  const study = seed.find((doc) => doc._type === 'caseStudy')!
  const text =
    'A long draft an editor pasted in, sentence after sentence, to see what the preview does. '.repeat(6)
  const issue = Array.from({ length: blocks }, (_, i) => ({
    _type: 'block',
    _key: `big${i}`,
    style: 'normal',
    markDefs: [],
    children: [{ _type: 'span', _key: `big${i}s`, text: `${i}: ${text}`, marks: [] }],
  }))
  return { ...study, _id: `drafts.${study._id}`, issue }
}

/** Each figure's median over runs, and the p99 of each run. */
const row = (runs: Load[]) => ({
  p50: median(runs.map((load) => load.p50)),
  p99: cell({ median: median(runs.map((load) => load.p99)), runs: runs.map((load) => load.p99) }),
  slowest: median(runs.map((load) => load.max)),
  requests: median(runs.map((load) => load.requests)),
  failed: runs.reduce((sum, load) => sum + load.failed, 0),
})

/**
 * Measures the figures above on the build in out/ (which holds it again afterwards).
 * @param scale case studies added to the seed for draft-to-visible's second size (0: none)
 * @param pairs A/B pairs of visitors alone and beside the loop
 */
export async function measureIsolation(scale: number, pairs: number): Promise<Tables> {
  const kept = keepExport()
  const { dir, file, seed } = seedFolder('bench-isolation-')
  writeDataset(file, seed)
  const tables: Tables = {}
  try {
    const site = await previewPublisher(kept, file)
    try {
      const cookie = await previewCookie(site.origin)
      await visitors(site.origin)
      await editorLoop(site.origin, cookie, 3)
      const cpuBefore = cpuMs(site.pid)
      const handOff = await editorLoop(site.origin, cookie)
      const cpuPerPage = Math.round(((cpuMs(site.pid) - cpuBefore) / handOff.requests) * 100) / 100
      const socket = previewSocket(site.previewPid())
      const [alone, beside, direct, loops]: [Load[], Load[], Load[], Load[]] = [[], [], [], []]
      for (let pair = 1; pair <= pairs; pair++) {
        console.log(
          `bench: visitors alone, beside an editor's loop, beside it sent straight (pair ${pair} of ${pairs})...`,
        )
        alone.push(await visitors(site.origin))
        const [load, loop] = await Promise.all([visitors(site.origin), editorLoop(site.origin, cookie)])
        beside.push(load)
        loops.push(loop)
        direct.push(
          (await Promise.all([visitors(site.origin), editorLoop(site.origin, cookie, DURATION, socket)]))[0]!,
        )
      }
      const ratios = (runs: Load[]) =>
        alone.map((load, i) => Math.round((runs[i]!.p99 / load.p99) * 100) / 100)

      console.log('bench: visitors while four previews of a 13 MB draft render...')
      const draft = bigDraft(seed, 20_000)
      writeDataset(file, [...seed, draft])
      const peak = { publisher: 0, preview: 0 }
      const sampler = setInterval(() => {
        peak.publisher = Math.max(peak.publisher, residentMb(site.pid))
        peak.preview = Math.max(peak.preview, residentMb(site.previewPid()))
      }, 100)
      const url = `${site.origin}/case-studies/${(draft.slug as { current: string }).current}`
      const [big, statuses] = await Promise.all([
        visitors(site.origin),
        Promise.all(
          Array.from({ length: 4 }, () =>
            fetch(url, { headers: { cookie } }).then(async (a) => (await a.arrayBuffer(), a.status)),
          ),
        ),
      ])
      clearInterval(sampler)
      writeDataset(file, seed)
      let answersAfter = false
      for (let tries = 0; tries < 120 && !answersAfter; tries++, await sleep(500))
        answersAfter = (await fetch(`${site.origin}/sites`, { headers: { cookie } })).status === 200

      tables[`Visitors beside editors' preview (${RATE} requests/s, ms)`] = {
        'visitors alone': row(alone),
        "beside an editor's loop": row(beside),
        'beside the loop sent straight to the preview': row(direct),
        'while 4 previews of a 13 MB draft render': row([big]),
      }
      tables["Editors' preview against its targets"] = {
        'p99 beside the loop / alone (target at most 1.2)': {
          value: cell({ median: median(ratios(beside)), runs: ratios(beside) }),
        },
        'p99 beside the loop sent straight / alone': { value: median(ratios(direct)) },
        "the loop's pages a run (failed)": {
          value: `${median(loops.map((l) => l.requests))} (${loops.reduce((s, l) => s + l.failed, 0)})`,
        },
        "publisher's CPU ms / KB on the wire, per preview page": {
          value: `${cpuPerPage} / ${Math.round(handOff.bytes / handOff.requests / 102.4) / 10}`,
        },
        'slowest visitor beside the 13 MB draft (target at most 100 ms)': { value: big.max },
        'publisher peak MB (target under 300) / preview process peak MB': {
          value: `${peak.publisher} / ${peak.preview}`,
        },
        'the four previews answered; the preview answers afterwards': {
          value: `${statuses.join(', ')}; ${answersAfter ? 'yes' : 'NO'}`,
        },
      }
    } finally {
      await site.stop()
    }
    const toVisible: Tables[string] = {}
    for (const documents of [seed, ...(scale > 0 ? [largeDataset(seed, 0, scale)] : [])]) {
      writeDataset(file, documents)
      const sized = await previewPublisher(kept, file)
      try {
        const cookie = await previewCookie(sized.origin)
        await (await fetch(`${sized.origin}/`, { headers: { cookie } })).text()
        const runs = await sample(3, () => draftToVisible(sized.origin, cookie, file, documents))
        const studies = documents.filter((doc) => doc._type === 'caseStudy').length
        toVisible[`${studies} case studies`] = { 'ms (target at most 1,000)': cell(timing(runs)) }
      } finally {
        await sized.stop()
      }
    }
    tables['A saved draft -> visible in the preview'] = toVisible
    return tables
  } finally {
    kept.restore()
    kept.drop()
    rmSync(dir, { recursive: true, force: true })
  }
}
