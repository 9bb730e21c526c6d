/**
 * Which drafts one preview render read, so that a render that fails anyway can name them
 * to its editor (server/preview-render-failure.ts). The vetting (draft-vetting.ts) keeps
 * every draft that breaks a rule of the schema or the build out of the view, but a page
 * can still fail on something no rule foresaw; the drafts its reads held are then where to
 * look, and the editor is the one who can fix or discard them.
 * The preview process runs each render inside `recordDraftsRead`; every query of a preview
 * perspective notes the drafts whose documents its result holds (`noteDraftsRead`, from
 * source.ts). Outside a recording (the build, scripts, tests) noting does nothing.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { idsIn } from './reads.ts'

/** A draft a render read: its stored id (e.g. `drafts.review-a`) and its title in the banner. */
export type DraftRead = { storedId: string; title: string }

/** A draft of the vetted view, as `VettedView.shown` lists them. */
type ShownDraft = { publishedId: string; storedId: string; title: string }

const recording = new AsyncLocalStorage<Map<string, DraftRead>>()

/**
 * Runs a render with the drafts it reads noted in `into` (by stored id), however deep in
 * its async work the reads happen.
 */
export function recordDraftsRead<Result>(into: Map<string, DraftRead>, render: () => Result): Result {
  return recording.run(into, render)
}

/** Each view's drafts by published id, made once per view. */
const byPublishedId = new WeakMap<readonly ShownDraft[], Map<string, ShownDraft>>()

/**
 * Notes, in the render being recorded if any, the drafts a query's result holds: those of
 * the view whose published `_id` the result names.
 * @param shown the drafts of the view the query read (`VettedView.shown`)
 * @param result the query's result
 */
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
