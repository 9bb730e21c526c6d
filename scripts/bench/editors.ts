/**
 * What the editors' tools cost on the publisher, with real builds of the embedded default:
 *  - publish-to-live of a one-review change, with the publish gate and without it
 *    (PUBLISH_GATE=off), and with the preview in use meanwhile (an editor's preview
 *    request every second while the publish builds);
 *  - the preview, rendered on request by the preview server: how long a start takes to
 *    get it ready, the first preview page, and a saved draft to visible in the preview
 *    (the draft written to the dataset file -> the first preview answer that shows it),
 *    on an idle publisher and while a publish is building, at the seed and at the seed
 *    plus `scale` case studies;
 *  - the publisher's resident memory (its own process: the preview process and builds
 *    are processes of their own) while serving previews.
 * Each figure is the median of `runs`, one fresh publisher per run, from the build in out/.
 */
import { mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DEFAULT_LOCAL_DATASET, parseNdjson, type StoredDocument } from '../../lib/content/source.ts'
import { PREVIEW_ENABLE_PATH } from '../../lib/publisher-routes.ts'
import { serveExport, type ServedSite } from '../audit/serve.ts'
import { readHealth, waitUntilSettled } from '../publisher-client.ts'
import {
  keepExport,
  publishReview,
  publishToLive,
  SECRET,
  timing,
  timingWhole,
  type Timing,
} from './publish.ts'
import { largeDataset } from './validation.ts'

export const PREVIEW_SECRET = 'bench-preview-secret-0123456789abcdef012345'

/** Preview figures at one size of dataset. */
export type PreviewFigures = {
  /** case studies in the dataset */
  caseStudies: number
  /** ms, a saved draft -> the first preview answer that shows it, idle publisher */
  draftToVisibleIdle: Timing
  /** ms, the same while a publish is building */
  draftToVisibleBuilding: Timing
  /** ms, the first preview page once the preview server is ready */
  firstPage: Timing
}

export type EditorFigures = {
  /** s, webhook -> live: with and without the gate, and with the preview in use */
  publishToLive: { withGate: Timing; withoutGate: Timing; previewInUse: Timing }
  /** ms, the publisher's start -> its preview server ready (the preview build already made) */
  previewStart: Timing
  preview: PreviewFigures[]
  /** MB resident, the publisher's own process (not the preview process) after serving previews */
  residentMb: Timing
}

/**
 * Writes documents as an NDJSON dataset file, whole at once (a file beside it, renamed
 * over it): the preview reads the file again whenever it changes, and a render that read
 * it half-written would fail, where the Content Lake only ever answers with saved documents.
 */
export function writeDataset(file: string, documents: StoredDocument[]) {
  const writing = `${file}.writing`
  writeFileSync(writing, documents.map((doc) => JSON.stringify(doc)).join('\n') + '\n')
  renameSync(writing, file)
}

/**
 * A fresh folder for a bench's dataset, and the seed's documents to write there: the seed's
 * images are linked in beside it, since a dataset's images are files beside it (as in
 * `studio/seed/`).
 * @param prefix the folder's name in the system's temporary folder, e.g. `bench-refresh-`
 * @returns the folder (the caller removes it), the dataset file's path in it (not written
 *   yet: `writeDataset`), and the seed's documents
 */
export function seedFolder(prefix: string): { dir: string; file: string; seed: StoredDocument[] } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix))
  symlinkSync(path.resolve(path.dirname(DEFAULT_LOCAL_DATASET), 'images'), path.join(dir, 'images'), 'dir')
  const seed = parseNdjson(readFileSync(DEFAULT_LOCAL_DATASET, 'utf8'), DEFAULT_LOCAL_DATASET)
  return { dir, file: path.join(dir, 'dataset.ndjson'), seed }
}

/** The seed's review shown on the home page, which each edit changes. */
export function homeReview(documents: StoredDocument[]): StoredDocument {
  const review = documents.find((doc) => doc._type === 'review' && doc.placement === 'both')
  if (!review) throw new Error(`${DEFAULT_LOCAL_DATASET} has no review shown on the home page`)
  return review
}

/** Resident memory of a process in MB (Linux /proc). */
export function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1])
  if (!kb) throw new Error(`/proc/${pid}/status has no VmRSS`)
  return Math.round(kb / 1024)
}

/**
 * Opens a preview session the way an editor does (`/preview/enable` with the secret).
 * @returns the Cookie header that carries it
 */
export async function previewCookie(base: string): Promise<string> {
  const answer = await fetch(`${base}${PREVIEW_ENABLE_PATH}?secret=${PREVIEW_SECRET}&redirect=/`, {
    redirect: 'manual',
  })
  const cookie = answer.headers.get('set-cookie')?.split(';')[0]
  if (answer.status !== 303 || !cookie) throw new Error(`preview enable answered ${answer.status}`)
  return cookie
}

/** Waits for the preview server; returns ms since `since`. */
export async function previewReady(base: string, since: number): Promise<number> {
  for (;;) {
    const state = (await readHealth(base, SECRET)).preview
    if (state === 'ready') return performance.now() - since
    if (typeof state === 'object') throw new Error(`the preview server failed: ${state.failed}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/**
 * Writes a draft of the review with a new marker into the dataset, and asks the preview's
 * home page again and again until an answer shows it.
 * @returns ms from the write to that answer
 */
export async function draftToVisible(
  base: string,
  cookie: string,
  file: string,
  documents: StoredDocument[],
) {
  const review = homeReview(documents)
  const marker = `bench-draft-${Date.now()}-${Math.random().toString(36).slice(2)}`
  const started = performance.now()
  writeDataset(file, [...documents, { ...review, _id: `drafts.${review._id}`, text: marker }])
  for (;;) {
    const html = await (await fetch(`${base}/`, { headers: { cookie } })).text()
    if (html.includes(marker)) return performance.now() - started
    if (performance.now() - started > 60_000) throw new Error('the draft never showed in the preview')
  }
}

/** Starts a publisher on a dataset file with the preview on, from the build in out/. */
export async function previewPublisher(
  kept: ReturnType<typeof keepExport>,
  file: string,
): Promise<ServedSite> {
  kept.restore()
  return serveExport(path.resolve('out'), {
    timeoutMs: 300_000,
    env: { SANITY_WEBHOOK_SECRET: SECRET, SANITY_PREVIEW_SECRET: PREVIEW_SECRET, LOCAL_DATASET: file },
  })
}

/** A publisher with the preview on a dataset file, from the build in out/, once its preview is ready. */
export async function readyPreviewPublisher(
  kept: ReturnType<typeof keepExport>,
  file: string,
): Promise<ServedSite> {
  const site = await previewPublisher(kept, file)
  await previewReady(site.origin, performance.now())
  return site
}

/**
 * Measures the figures above on the build in `out/` (which holds it again afterwards).
 * The preview server's build must exist (`npm run build:preview`): its start is measured
 * without a build.
 * @param scale case studies added to the seed for the second size (0: the seed only)
 */
export async function measureEditorFigures(runs = 3, scale = 200): Promise<EditorFigures> {
  const kept = keepExport()
  const { dir, seed } = seedFolder('bench-editors-')
  const review = homeReview(seed)
  const edited = seed.map((doc) =>
    doc === review ? { ...doc, text: `${String(doc.text).slice(0, 360)} (edited for the bench)` } : doc,
  )
  const sizes = [seed, ...(scale > 0 ? [largeDataset(seed, 0, scale)] : [])]
  const samples = {
    withGate: [] as number[],
    withoutGate: [] as number[],
    previewInUse: [] as number[],
    previewStart: [] as number[],
    resident: [] as number[],
  }
  const preview = sizes.map(() => ({ idle: [] as number[], building: [] as number[], first: [] as number[] }))
  try {
    for (let run = 1; run <= runs; run++) {
      console.log(`bench: publish-to-live and the preview (run ${run} of ${runs})...`)
      const published = path.join(dir, 'published.ndjson')
      writeDataset(published, edited)
      for (const [gate, into] of [
        ['on', samples.withGate],
        ['off', samples.withoutGate],
      ] as const) {
        kept.restore()
        const site = await serveExport(path.resolve('out'), {
          env: { SANITY_WEBHOOK_SECRET: SECRET, LOCAL_DATASET: published, PUBLISH_GATE: gate },
        })
        try {
          into.push(await publishToLive(site.origin))
        } finally {
          await site.stop()
        }
      }
      for (const [index, documents] of sizes.entries()) {
        const file = path.join(dir, `dataset-${index}.ndjson`)
        writeDataset(file, documents)
        const starting = performance.now()
        const site = await previewPublisher(kept, file)
        try {
          const readyMs = await previewReady(site.origin, starting)
          if (index === 0) samples.previewStart.push(readyMs)
          const cookie = await previewCookie(site.origin)
          const first = performance.now()
          await (await fetch(`${site.origin}/`, { headers: { cookie } })).text()
          preview[index]!.first.push(performance.now() - first)
          preview[index]!.idle.push(await draftToVisible(site.origin, cookie, file, documents))
          // A publish building meanwhile (the published change is in the dataset too).
          if ((await publishReview(site.origin, review._id)) !== 202) throw new Error('webhook refused')
          while (!(await readHealth(site.origin, SECRET)).building)
            await new Promise((resolve) => setTimeout(resolve, 50))
          preview[index]!.building.push(await draftToVisible(site.origin, cookie, file, documents))
          if (index === 0) samples.resident.push(residentMb(site.pid))
          await waitUntilSettled(site.origin, SECRET)
          if (index === 0) {
            // Publish-to-live with an editor previewing meanwhile (one page a second).
            let previewing = true
            const editor = (async () => {
              while (previewing) {
                await (await fetch(`${site.origin}/`, { headers: { cookie } })).text()
                await new Promise((resolve) => setTimeout(resolve, 1000))
              }
            })()
            samples.previewInUse.push(await publishToLive(site.origin))
            previewing = false
            await editor
          }
        } finally {
          await site.stop()
        }
      }
    }
  } finally {
    kept.restore()
    kept.drop()
    rmSync(dir, { recursive: true, force: true })
  }
  return {
    publishToLive: {
      withGate: timing(samples.withGate),
      withoutGate: timing(samples.withoutGate),
      previewInUse: timing(samples.previewInUse),
    },
    previewStart: timingWhole(samples.previewStart),
    preview: preview.map((figures, index) => ({
      caseStudies: sizes[index]!.filter((doc) => doc._type === 'caseStudy').length,
      draftToVisibleIdle: timingWhole(figures.idle),
      draftToVisibleBuilding: timingWhole(figures.building),
      firstPage: timingWhole(figures.first),
    })),
    residentMb: timingWhole(samples.resident),
  }
}
