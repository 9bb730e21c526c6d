/**
 * What the editors' tools cost on the publisher, with real builds of the embedded default
 * and a change to one document (a home-page review's text), as an editor makes it:
 *  - publish-to-live with the publish gate, and without it (PUBLISH_GATE=off);
 *  - preview-ready: a draft's webhook -> the preview build with the draft is ready.
 * Each run starts one fresh publisher per figure from the same build, in turn, so the
 * machine's load falls on all three alike; median of `runs` each.
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DEFAULT_LOCAL_DATASET, parseNdjson } from '../../lib/content/source.ts'
import { serveExport } from '../audit/serve.ts'
import {
  health,
  keepExport,
  publish,
  publishToLive,
  SECRET,
  settled,
  timing,
  type Timing,
} from './publish.ts'

export type EditorFigures = {
  /** s, webhook -> live, with and without the publish gate */
  publishToLive: { withGate: Timing; withoutGate: Timing }
  /** s, a draft's webhook -> its preview build ready */
  previewReady: Timing
}

/**
 * A copy of the seed in which one review's text is changed, published (`published`) or
 * as a draft beside the published document (`draft`).
 * @returns the dataset file and the review's id
 */
function datasetWithEdit(dir: string, as: 'published' | 'draft'): { file: string; id: string } {
  const documents = parseNdjson(readFileSync(DEFAULT_LOCAL_DATASET, 'utf8'), DEFAULT_LOCAL_DATASET)
  const review = documents.find((doc) => doc._type === 'review' && doc.placement === 'both')
  if (!review) throw new Error(`${DEFAULT_LOCAL_DATASET} has no review shown on the home page`)
  const edited = { ...review, text: `${String(review.text).slice(0, 360)} (edited for the bench)` }
  const next =
    as === 'published'
      ? documents.map((doc) => (doc === review ? edited : doc))
      : [...documents, { ...edited, _id: `drafts.${review._id}` }]
  const file = path.join(dir, `dataset-${as}.ndjson`)
  writeFileSync(file, next.map((doc) => JSON.stringify(doc)).join('\n') + '\n')
  return { file, id: review._id }
}

/**
 * A draft's webhook, timed until the preview build that holds it is ready.
 * @returns ms
 * @throws Error when the webhook is refused or no preview build was made
 */
async function draftToPreview(base: string, id: string): Promise<number> {
  const before = (await health(base)).preview?.lastBuild?.id
  const started = performance.now()
  if ((await publish(base, `drafts.${id}`)) !== 202) throw new Error('webhook refused')
  const after = await settled(base)
  if (!after.preview?.lastBuild || after.preview.lastBuild.id === before)
    throw new Error('no preview build was made')
  return performance.now() - started
}

/** Measures the figures above on the build in `out/` (which holds it again afterwards). */
export async function measureEditorFigures(runs = 3): Promise<EditorFigures> {
  const kept = keepExport()
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-editors-'))
  // A dataset's images are files beside it, as in the seed.
  symlinkSync(path.resolve(path.dirname(DEFAULT_LOCAL_DATASET), 'images'), path.join(dir, 'images'), 'dir')
  const published = datasetWithEdit(dir, 'published')
  const draft = datasetWithEdit(dir, 'draft')
  const serve = (env: Record<string, string>) => {
    kept.restore()
    return serveExport(path.resolve('out'), { env: { SANITY_WEBHOOK_SECRET: SECRET, ...env } })
  }
  const withGate: number[] = []
  const withoutGate: number[] = []
  const previewReady: number[] = []
  try {
    for (let run = 1; run <= runs; run++) {
      console.log(
        `bench: publish-to-live with and without the gate, preview-ready (run ${run} of ${runs})...`,
      )
      for (const [gate, samples] of [
        ['on', withGate],
        ['off', withoutGate],
      ] as const) {
        const site = await serve({ LOCAL_DATASET: published.file, PUBLISH_GATE: gate })
        try {
          samples.push(await publishToLive(site.origin))
        } finally {
          await site.stop()
        }
      }
      const site = await serve({
        LOCAL_DATASET: draft.file,
        SANITY_PREVIEW_SECRET: 'bench-preview-secret-0123456789abcdef012345',
      })
      try {
        previewReady.push(await draftToPreview(site.origin, draft.id))
      } finally {
        await site.stop()
      }
    }
  } finally {
    kept.restore()
    kept.drop()
    rmSync(dir, { recursive: true, force: true })
  }
  return {
    publishToLive: { withGate: timing(withGate), withoutGate: timing(withoutGate) },
    previewReady: timing(previewReady),
  }
}
