/**
 * Which drafts one preview render read, so that a render that fails anyway can name them to its
 * editor (server/preview/preview-render-failure.ts); outside a recording, noting does nothing.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { idsIn } from './reads.ts'

/** A draft a render read: its stored id (e.g. `drafts.review-a`) and its title in the banner. */
export type DraftRead = { storedId: string; title: string }

type ShownDraft = { publishedId: string; storedId: string; title: string }

const recording = new AsyncLocalStorage<Map<string, DraftRead>>()

/** Runs a render with the drafts it reads noted in `into` (by stored id), however deep in its async work. */
export function recordDraftsRead<Result>(into: Map<string, DraftRead>, render: () => Result): Result {
  return recording.run(into, render)
}

const byPublishedId = new WeakMap<readonly ShownDraft[], Map<string, ShownDraft>>()

/** Notes, in the render being recorded, the drafts of the view (`VettedView.shown`) whose published `_id` a result names. */
export function noteDraftsRead(shown: readonly ShownDraft[], result: unknown): void {
  const into = recording.getStore()
  if (!into || shown.length === 0) return
  let drafts = byPublishedId.get(shown)
  if (!drafts) byPublishedId.set(shown, (drafts = new Map(shown.map((draft) => [draft.publishedId, draft]))))
  for (const id of idsIn(result)) {
    const draft = drafts.get(id)
    if (draft) into.set(draft.storedId, { storedId: draft.storedId, title: draft.title })
  }
}
