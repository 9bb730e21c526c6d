/**
 * Drafts pass the site's rules before they render. Editors' preview shows drafts and
 * release versions (the documents a preview perspective takes from a layer above the
 * published one); unlike published documents, nothing checked them before: an editor can
 * save a draft that breaks a rule (the Studio shows the error, and saves it anyway), and a
 * script can save anything at all. Here each one is checked, and one that fails is not
 * shown: its published version takes its place, or, when it has none, the document is left
 * out of the view. What was left out, and why, is kept for the preview's banner.
 * - First its shape (`refusal`): nested no deeper than `MAX_PREVIEW_DRAFT_DEPTH`, no larger
 *   than `MAX_PREVIEW_DRAFT_BYTES`, of a document type of this site's schema, and of its
 *   published document's type; and its images lead to image assets (`imageProblems`, the
 *   build's own rule). Nothing else here or in the pages can then meet a value the schema
 *   or the build never allows (a stack-deep array, a settings document of no known type,
 *   an image of an FAQ).
 * - Then the Studio schema's rules, the very ones the build runs (`validateDocument` in
 *   `schema-rules.ts`); a rule that throws counts as a broken rule.
 * Each draft fails alone: nothing about one draft can stop the others, or the page, from
 * being shown (a document the perspective cannot place at all, such as
 * `drafts.drafts.<id>`, comes here as `Unplaced` and is reported the same way).
 *
 * Loaded only by a preview perspective's read (`source.ts` imports it on demand): the
 * build reads `published` and never loads the schema for this.
 */
import { createHash } from 'node:crypto'
import { stegaClean } from '@sanity/client/stega'
import type { Path } from '@sanity/types'
import { imageAsset, type ContentProblem } from './build-rules.ts'
import { draftTitle } from './draft-title.ts'
import { resultHash } from './reads.ts'
import {
  fieldOf,
  isSiteDocumentType,
  prepareSnapshot,
  snapshotIdsIn,
  validateDocument,
  type PreparedSnapshot,
  type RuleRead,
} from './schema-rules.ts'
import { referencedIds, type StoredDocument } from './source.ts'

/** A rule a draft breaks: where, in Sanity's path notation, and the rule's message. */
export type BrokenRule = {
  /** The field path as the build prints it, `(document)` for the document as a whole. */
  field: string
  /** The same path for the Studio's edit intent; null for the document as a whole. */
  path: string | null
  message: string
}

/** A draft or release version the view does not show, because it breaks a rule. */
export type RejectedDraft = {
  /** Its id as stored, e.g. `drafts.review-a` or `versions.rSpring.review-a`. */
  storedId: string
  /** Its published id; its stored id when it has none (an id no perspective can place). */
  publishedId: string
  type: string
  /** What the banner calls it (`draftTitle`): text from one of its title fields, or its id. */
  title: string
  /** Every rule it breaks (level error). */
  errors: BrokenRule[]
  /** What the view shows instead: the published version, or nothing at all. */
  instead: 'published' | 'nothing'
}

/** A draft or release version the view shows, for the banner's list. */
export type ShownDraft = { publishedId: string; storedId: string; type: string; title: string }

/**
 * A perspective's view with its drafts vetted: the documents to query, the drafts among
 * them (newest first), and the drafts taken out of it.
 */
export type VettedView = { documents: StoredDocument[]; shown: ShownDraft[]; rejected: RejectedDraft[] }

/** A stored document that a perspective could not place, and why (`placeInPerspective` in source.ts). */
export type Unplaced = { doc: StoredDocument; reason: string }

/**
 * The rules' verdict on one revision of a draft, and what it rests on besides the draft
 * itself: the results of the queries its rules ran over the snapshot (the slug's and
 * legacy id's uniqueness, links to case study pages) and which of the documents it
 * references exist. The same draft can be valid over one snapshot and invalid over
 * another (another case study took its slug), so a verdict is reused only while every
 * one of those still answers the same over the view being vetted.
 */
type Verdict = {
  errors: ContentProblem[]
  reads: RuleRead[]
  /** The snapshot's ids its rules' queries answered with (`DocumentFindings.found`). */
  found: string[]
  /** The ids it references, sorted. */
  referenced: string[]
  /** Which of them resolved (`resolution`). */
  resolved: string
}

/** Where the process keeps the verdicts (`verdicts`). */
const VERDICTS = Symbol.for('agency-site.preview-draft-verdicts')

/**
 * Verdicts by draft revision: its stored id and a hash of the document as stored (its
 * `_rev` included). A `_rev` alone would do for the Content Lake, which gives every change
 * a new one, but a local dataset file is written by hand and by scripts, and a copied
 * document keeps its `_rev`; hashing one draft costs microseconds. Bounded, oldest first
 * out, for a preview server that runs for weeks. One map for the whole process: the
 * preview process reads the settings for a page's policy with its own copy of this module
 * before Next's server, which bundles another, renders the page; each vetted the same
 * drafts again otherwise.
 */
const verdicts = ((globalThis as { [VERDICTS]?: Map<string, Verdict> })[VERDICTS] ??= new Map())
const VERDICTS_KEPT = 5_000

let validated = 0
let readsChecked = 0

/** How many drafts the rules have validated in this process (a reused verdict does not count), for tests and benchmarks. */
export const draftsValidated = (): number => validated

/**
 * How many of the rules' recorded queries were run again to check that a kept verdict
 * still holds, in this process (for tests and benchmarks: the vetting's other cost).
 */
export const ruleReadsChecked = (): number => readsChecked

/**
 * The largest draft the preview checks, as stored JSON: a hundred times the seed's
 * longest case study. The rules' walk of a draft holds many times its size in memory
 * (a 13 MB draft of 20,000 text blocks took the preview process past 512 MB, again on
 * every start, since every page's queries read it), so a larger one is not shown, and
 * says so, before any rule runs.
 */
export const MAX_PREVIEW_DRAFT_BYTES = 1_000_000

/**
 * The deepest a draft's values may nest (the document itself is level 1): five times this
 * schema's deepest, a case study's text (document, field, block, children, span, marks:
 * 6). Every walk of a document (JSON.stringify, the rules, GROQ, React) recurses, and an
 * array nested a few thousand deep, a few kilobytes of JSON, overflows the stack.
 */
export const MAX_PREVIEW_DRAFT_DEPTH = 32

/**
 * How deeply a value nests, counted without recursion, and only up to just past `limit`.
 * @returns 0 for a string or number, 1 for an object of plain values, and so on
 */
function depthOf(value: unknown, limit: number): number {
  let deepest = 0
  const stack: [unknown, number][] = [[value, 1]]
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!
    if (!item || typeof item !== 'object') continue
    if (depth > deepest && (deepest = depth) > limit) return deepest
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, depth + 1])
  }
  return deepest
}

/** The JSON of a draft whose shape passed, its revision's key, and its size in bytes. */
type Fingerprint = { key: string; bytes: number }

/**
 * Why a draft is not shown whatever the rules say, or null. Its depth first: only then is
 * it safe to serialize.
 * @param published its published version, if any
 */
function refusal(doc: StoredDocument, published: StoredDocument | undefined): string | Fingerprint {
  const depth = depthOf(doc, MAX_PREVIEW_DRAFT_DEPTH)
  if (depth > MAX_PREVIEW_DRAFT_DEPTH)
    return `this draft nests its values more than ${MAX_PREVIEW_DRAFT_DEPTH} levels deep: the preview checks and shows drafts up to ${MAX_PREVIEW_DRAFT_DEPTH} levels`
  if (!isSiteDocumentType(doc._type))
    return `its type "${shortened(doc._type)}" is not a document type of this site's schema`
  if (published && published._type !== doc._type)
    return `its type "${shortened(doc._type)}" is not the type of its published document ("${shortened(published._type)}")`
  const json = JSON.stringify(doc)
  const bytes = Buffer.byteLength(json)
  if (bytes > MAX_PREVIEW_DRAFT_BYTES)
    return `this draft is ${(bytes / 1e6).toFixed(1)} MB: the preview checks and shows drafts up to ${MAX_PREVIEW_DRAFT_BYTES / 1e6} MB`
  return { key: `${String(doc._originalId)}\u0000${createHash('sha1').update(json).digest('hex')}`, bytes }
}

/**
 * The build's own image rule (`imageAsset` in build-rules.ts) on a draft's images: each asset
 * reference leads to an asset document with a width and a height. The schema's rules only
 * ask that the referenced document exists: a case study whose image points at an FAQ passes
 * them, and would fail every page that shows its card.
 * @param documentOf a document of the view by `_id` (asset documents are never drafts)
 * @returns one problem an image that fails, at its field
 */
function imageProblems(
  doc: StoredDocument,
  documentOf: (id: string) => StoredDocument | undefined,
): ContentProblem[] {
  const problems: ContentProblem[] = []
  const walk = (value: unknown, path: Path): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        const key = (item as { _key?: unknown } | null)?._key
        walk(item, [...path, typeof key === 'string' ? { _key: key } : index])
      })
      return
    }
    if (!value || typeof value !== 'object') return
    const asset = (value as { asset?: { _ref?: unknown } }).asset
    if (path.length > 0 && typeof asset?._ref === 'string') {
      const problem = imageAsset({ asset: documentOf(asset._ref) ?? null })
      if (problem) problems.push({ documentId: String(doc._originalId), field: fieldOf(path), problem })
    }
    for (const [key, child] of Object.entries(value)) if (key !== 'asset') walk(child, [...path, key])
  }
  walk(doc, [])
  return problems
}

/** A stored `_type` as a message quotes it: a type name, never a page of text. */
const shortened = (text: string) => (text.length > 60 ? `${text.slice(0, 59)}…` : text)

/** Which of the referenced ids resolve in the view, e.g. `a:1,b:0` (the reference rule asks). */
const resolution = (referenced: readonly string[], ids: ReadonlySet<string>) =>
  referenced.map((id) => `${id}:${ids.has(id) ? 1 : 0}`).join(',')

/**
 * Whether a kept verdict still answers the same over this snapshot (each recorded read run
 * again, and its references resolved again).
 * @returns null when it holds; otherwise the ids it now waits on: those of its references,
 *   and those the reads that answer differently now name (when those leave the view, it
 *   may hold again)
 */
function changesOf(verdict: Verdict, snapshot: PreparedSnapshot): Set<string> | null {
  const waits = new Set<string>()
  const resolves = verdict.resolved === resolution(verdict.referenced, snapshot.ids)
  if (!resolves) for (const id of verdict.referenced) waits.add(id)
  let answers = true
  for (const read of verdict.reads) {
    readsChecked++
    const result = snapshot.evaluate(read.query, read.params)
    if (resultHash(result) === read.hash) continue
    answers = false
    snapshotIdsIn(result, snapshot.ids, waits)
  }
  return resolves && answers ? null : waits
}

/** A problem of the draft as a whole. */
const wholeDocument = (doc: StoredDocument, problem: string): ContentProblem => ({
  documentId: String(doc._originalId),
  field: fieldOf([]),
  problem,
})

/** Validates one draft over the snapshot; a rule that throws counts as a broken rule (fail closed). */
async function verdictOf(doc: StoredDocument, snapshot: PreparedSnapshot): Promise<Verdict> {
  const referenced = [...referencedIds([doc])].sort()
  const resolved = resolution(referenced, snapshot.ids)
  validated++
  try {
    const findings = await validateDocument(snapshot, doc)
    return { errors: findings.errors, reads: findings.reads, found: findings.found, referenced, resolved }
  } catch (error) {
    const problem = `could not be checked: ${(error as Error).message}`
    return { errors: [wholeDocument(doc, problem)], reads: [], found: [], referenced, resolved }
  }
}

/** Keeps a verdict on a draft's revision (the newest last, the oldest first out). */
function keep(key: string, verdict: Verdict): Verdict {
  verdicts.delete(key)
  if (verdicts.size >= VERDICTS_KEPT) verdicts.delete(verdicts.keys().next().value!)
  verdicts.set(key, verdict)
  return verdict
}

/** The ids a verdict rests on: every `_id` its rules' queries found, and every id it references. */
const restsOn = (verdict: Verdict) => [...verdict.referenced, ...verdict.found]

/**
 * How many drafts are validated at once. Sanity's validation waits a timer between the
 * levels of a document, so one at a time would mostly wait; hundreds at once spend most of
 * their time collecting the garbage of each other's observables.
 */
const VALIDATIONS_AT_ONCE = 8

/** `Promise.all(items.map(work))` with at most `limit` at work at once; results in the items' order. */
async function mapLimited<Item, Result>(
  items: readonly Item[],
  limit: number,
  work: (item: Item) => Promise<Result>,
): Promise<Result[]> {
  const results: Result[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

const isDraft = (doc: StoredDocument) => typeof doc._originalId === 'string'

/** Newest first by `_updatedAt` (a draft without one last), in view order otherwise. */
const newestFirst = (a: StoredDocument, b: StoredDocument) => {
  const at = (doc: StoredDocument) => (typeof doc._updatedAt === 'string' ? doc._updatedAt : '')
  return at(b) < at(a) ? -1 : at(b) > at(a) ? 1 : 0
}

/**
 * Vets a perspective's view: each document in it from a non-published layer (one with
 * `_originalId`, as `withPerspective` and the Content Lake mark them) must pass its shape
 * checks (`refusal`) and the schema's rules over the view. One that fails is replaced by
 * its published version, or left out when there is none (not by the layer below it: a
 * draft under a release version is not what the editor asked to see either, and is not
 * vetted here); then the drafts whose verdict rests on what changed are checked again
 * (a link to a case study that is no longer in the view breaks), and so on; finally every
 * draft left is checked once more over the view as it ends (a kept verdict by its recorded
 * queries, which costs no validation), until none fails. The cost grows with the drafts:
 * each draft is validated once, and again only when a document its verdict rests on was
 * taken out (`draftsValidated`, `ruleReadsChecked`).
 * Published documents are not vetted: the build validated them before they went live.
 * @param view the dataset through a preview perspective (`placeInPerspective`, or the Content Lake's)
 * @param publishedOf the stored published document of an id, if any
 * @param unplaced the stored drafts the perspective could not place, each reported as it is
 * @returns the view to query, in the same order, the drafts in it, and the drafts taken out of it
 */
export async function vetView(
  view: StoredDocument[],
  publishedOf: (publishedId: string) => StoredDocument | undefined,
  unplaced: readonly Unplaced[] = [],
): Promise<VettedView> {
  const rejected: RejectedDraft[] = unplaced.map(({ doc, reason }) => ({
    storedId: doc._id,
    publishedId: doc._id,
    type: shortened(doc._type),
    title: draftTitle(doc),
    errors: [{ field: fieldOf([]), path: null, message: reason }],
    instead: 'nothing',
  }))
  let documents = view
  /** Takes drafts out of the view, each with what it breaks. */
  const takeOut = (broken: ReadonlyMap<string, ContentProblem[]>) => {
    documents = documents.flatMap((doc) => {
      const errors = broken.get(doc._id)
      if (!errors) return [doc]
      const published = publishedOf(doc._id)
      rejected.push({
        storedId: String(doc._originalId),
        publishedId: doc._id,
        type: doc._type,
        title: draftTitle(doc),
        errors: errors.map(({ field, problem }) => ({
          field,
          path: field === fieldOf([]) ? null : field,
          message: problem,
        })),
        instead: published ? 'published' : 'nothing',
      })
      return published ? [published] : []
    })
  }

  const keys = new Map<StoredDocument, string>()
  const refused = new Map<string, ContentProblem[]>()
  const byId = new Map(documents.map((doc) => [doc._id, doc]))
  for (const doc of documents.filter(isDraft)) {
    let checked: string | Fingerprint
    let images: ContentProblem[] = []
    try {
      checked = refusal(doc, publishedOf(doc._id))
      if (typeof checked !== 'string') images = imageProblems(doc, (id) => byId.get(id))
    } catch (error) {
      checked = `could not be checked: ${(error as Error).message}`
    }
    if (typeof checked === 'string') refused.set(doc._id, [wholeDocument(doc, checked)])
    else if (images.length > 0) refused.set(doc._id, images)
    else keys.set(doc, checked.key)
  }
  if (refused.size > 0) takeOut(refused)

  /** The drafts whose verdict rests, or waits, on an id, by that id (a stale entry costs one check). */
  const dependents = new Map<string, Set<StoredDocument>>()
  const dependOn = (doc: StoredDocument, ids: Iterable<string>) => {
    for (const id of ids) {
      let set = dependents.get(id)
      if (!set) dependents.set(id, (set = new Set()))
      set.add(doc)
    }
  }
  /**
   * The drafts' verdicts over the view as it is now: a kept verdict that still holds, or,
   * with `validate`, a new one. Without it, a draft with no kept verdict that holds is
   * pending: it waits on what its changed reads name, or on nothing.
   * @returns the drafts that break a rule, and those pending
   */
  const settle = async (drafts: readonly StoredDocument[], validate: boolean) => {
    const snapshot = prepareSnapshot(documents)
    const broken = new Map<string, ContentProblem[]>()
    const pending: StoredDocument[] = []
    await mapLimited(drafts, VALIDATIONS_AT_ONCE, async (doc) => {
      const key = keys.get(doc)!
      const kept = verdicts.get(key)
      const waits = kept && changesOf(kept, snapshot)
      let verdict = kept && !waits ? kept : undefined
      const guess = verdict ? undefined : guessed.get(key)
      if (guess && !changesOf(guess, snapshot)) verdict = keep(key, guess)
      if (!verdict && validate) verdict = keep(key, await verdictOf(doc, snapshot))
      if (!verdict) {
        if (waits) dependOn(doc, waits)
        pending.push(doc)
        return
      }
      dependOn(doc, restsOn(verdict))
      if (verdict.errors.length > 0) broken.set(doc._id, verdict.errors)
    })
    return { broken, pending }
  }

  /** The view with these drafts taken out, as `takeOut` would leave it (nothing reported). */
  const viewWithout = (drafts: ReadonlySet<StoredDocument>) =>
    documents.flatMap((doc) => {
      if (!drafts.has(doc)) return [doc]
      const published = publishedOf(doc._id)
      return published ? [published] : []
    })
  /**
   * While the drafts `waiting` are validated, validates (within the same drafts at once)
   * those that rest on them over the view without them, those that rest on these over the
   * view without both, and so on: the verdicts a cascade through a chain of drafts will ask
   * for next, one validation's wait at a time otherwise. A guess is kept apart (`guessed`),
   * and used only once it holds over the view as it then is; a wrong one costs its
   * validation, and nothing else.
   */
  const guessed = new Map<string, Verdict>()
  const guess = async (waiting: readonly StoredDocument[]) => {
    const guesses: { doc: StoredDocument; snapshot: PreparedSnapshot }[] = []
    const out = new Set(waiting)
    let layer = waiting
    while (out.size < VALIDATIONS_AT_ONCE && layer.length > 0) {
      const next = new Set<StoredDocument>()
      for (const taken of layer)
        for (const doc of dependents.get(taken._id) ?? [])
          if (!out.has(doc) && next.size + out.size < VALIDATIONS_AT_ONCE) next.add(doc)
      const inView = new Set(documents.filter(isDraft))
      layer = [...next].filter((doc) => inView.has(doc))
      if (layer.length === 0) break
      const snapshot = prepareSnapshot(viewWithout(out))
      for (const doc of layer) {
        guesses.push({ doc, snapshot })
        out.add(doc)
      }
    }
    await mapLimited(guesses, VALIDATIONS_AT_ONCE, async ({ doc, snapshot }) => {
      const key = keys.get(doc)!
      const kept = verdicts.get(key)
      if (!kept || changesOf(kept, snapshot)) guessed.set(key, await verdictOf(doc, snapshot))
    })
  }

  // Kept verdicts first: what follows from them costs no validation (a chain of drafts that a
  // broken one at its end took out, saved again unchanged, is taken out again by its kept
  // verdicts alone); then the drafts still pending are validated, and so on; last, every
  // draft left is checked over the view as it ends, and all of it again if that took one out.
  for (;;) {
    let { broken, pending } = await settle(documents.filter(isDraft), false)
    if (broken.size === 0 && pending.length === 0) break
    for (;;) {
      // Whatever rests, or waits, on a draft taken out is checked again, and only that.
      while (broken.size > 0) {
        const taken = [...broken.keys()]
        takeOut(broken)
        const inView = new Set(documents.filter(isDraft))
        const suspects = new Set<StoredDocument>()
        for (const id of taken)
          for (const doc of dependents.get(id) ?? []) if (inView.has(doc)) suspects.add(doc)
        const next = await settle([...suspects], false)
        broken = next.broken
        pending.push(...next.pending)
      }
      const inView = new Set(documents.filter(isDraft))
      const waiting = [...new Set(pending)].filter((doc) => inView.has(doc))
      pending = []
      if (waiting.length === 0) break
      const [found] = await Promise.all([settle(waiting, true), guess(waiting)])
      broken = found.broken
    }
  }
  const shown = documents
    .filter(isDraft)
    .sort(newestFirst)
    .map((doc) => ({
      publishedId: doc._id,
      storedId: String(doc._originalId),
      type: doc._type,
      title: draftTitle(doc),
    }))
  // What the banner shows as text carries no stega of a draft's (a rule's message quotes the value).
  return { documents, shown: stegaClean(shown), rejected: stegaClean(rejected) }
}
