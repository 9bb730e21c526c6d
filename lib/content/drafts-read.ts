/**
 * One preview render's record: the drafts it read, so that a render that fails anyway can name them to
 * its editor (server/preview/preview-renderer.ts), and the reads it shares; outside one, both do nothing.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { idsIn } from './reads.ts'

/** A draft a render read: its stored id (e.g. `drafts.review-a`) and its title in the banner. */
export type DraftRead = { storedId: string; title: string }

type ShownDraft = { publishedId: string; storedId: string; title: string }

type Recording = { drafts: Map<string, DraftRead>; reads: Map<string, Promise<unknown>> }

// One store for the preview process and Next's bundle of this module, which is another instance of it.
const RECORDING = Symbol.for('agency-site.preview-render-recording')
const recording = ((globalThis as { [RECORDING]?: AsyncLocalStorage<Recording> })[RECORDING] ??=
  new AsyncLocalStorage<Recording>())

/** Runs a render with the drafts it reads noted in `into` (by stored id), however deep in its async work. */
export function recordDraftsRead<Result>(into: Map<string, DraftRead>, render: () => Result): Result {
  return recording.run({ drafts: into, reads: new Map() }, render)
}

/** `read()`'s promise once per `key` in the render being recorded (its page and banner share it); else `read()`. */
export function oncePerRender<Value>(key: string, read: () => Promise<Value>): Promise<Value> {
  const reads = recording.getStore()?.reads
  if (!reads) return read()
  if (!reads.has(key)) reads.set(key, read())
  return reads.get(key) as Promise<Value>
}

const byPublishedId = new WeakMap<readonly ShownDraft[], Map<string, ShownDraft>>()

/** Notes, in the render being recorded, the drafts of the view (`VettedView.shown`) whose published `_id` a result names. */
export function noteDraftsRead(shown: readonly ShownDraft[], result: unknown): void {
  const into = recording.getStore()?.drafts
  if (!into || shown.length === 0) return
  let drafts = byPublishedId.get(shown)
  if (!drafts) byPublishedId.set(shown, (drafts = new Map(shown.map((draft) => [draft.publishedId, draft]))))
  for (const id of idsIn(result)) {
    const draft = drafts.get(id)
    if (draft) into.set(draft.storedId, { storedId: draft.storedId, title: draft.title })
  }
}
