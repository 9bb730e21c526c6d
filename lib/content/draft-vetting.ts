/** Vets a preview's drafts and release versions before they render: one that fails is not shown (docs/content.md). */
import pMap from 'p-map'
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
import { referencedIds, type StoredDocument } from './stored-document.ts'

/** A rule a draft breaks: the field in Sanity's path notation, the same path for the Studio (null: the whole document). */
export type BrokenRule = { field: string; path: string | null; message: string }

export type ShownDraft = { publishedId: string; storedId: string; type: string; title: string }

/** A draft or release version (`storedId`, e.g. `versions.rSpring.review-a`) not shown as it breaks a rule. */
export type RejectedDraft = ShownDraft & { errors: BrokenRule[]; instead: 'published' | 'nothing' }

/** A perspective's view with its drafts vetted: documents to query, drafts shown (newest first), drafts taken out. */
export type VettedView = { documents: StoredDocument[]; shown: ShownDraft[]; rejected: RejectedDraft[] }

export type Unplaced = { doc: StoredDocument; reason: string }

/** The rules' verdict on a draft revision, reused only while its rules' queries and references answer the same. */
type Verdict = {
  errors: ContentProblem[]
  reads: RuleRead[]
  found: string[]
  referenced: string[]
  resolved: string
}

const VERDICTS = Symbol.for('agency-site.preview-draft-verdicts')

// One map per process (the preview process loads this module twice: once with Next's bundle),
// by stored id and a hash of the draft (a hand-copied document keeps its `_rev`), bounded.
const verdicts = ((globalThis as { [VERDICTS]?: Map<string, Verdict> })[VERDICTS] ??= new Map())
const VERDICTS_KEPT = 5_000

let validated = 0
let readsChecked = 0

/** How many drafts the rules have validated in this process (reused verdicts not counted). */
export const draftsValidated = (): number => validated

/** How many recorded rule queries were run again to check a kept verdict, in this process. */
export const ruleReadsChecked = (): number => readsChecked

/** The largest draft the preview checks, as stored JSON (docs/content.md, "Size"). */
export const MAX_PREVIEW_DRAFT_BYTES = 1_000_000

/** The deepest a draft's values may nest (the document is level 1): deeper overflows recursive walks. */
export const MAX_PREVIEW_DRAFT_DEPTH = 32

/** How deeply a value nests (0 for a scalar), counted without recursion, up to just past `limit`. */
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

type Fingerprint = { key: string; bytes: number }

/** Why a draft is not shown whatever the rules say, or its fingerprint; depth first, so it can be serialized. */
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

/** The build's image rule on a draft's images: an image pointing at an FAQ would fail every page with its card. */
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

const shortened = (text: string) => (text.length > 60 ? `${text.slice(0, 59)}…` : text)

const resolution = (referenced: readonly string[], ids: ReadonlySet<string>) =>
  referenced.map((id) => `${id}:${ids.has(id) ? 1 : 0}`).join(',')

/** Whether a kept verdict still holds over this snapshot: null when it does, else the ids it now waits on. */
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

const wholeDocument = (doc: StoredDocument, problem: string): ContentProblem => ({
  documentId: String(doc._originalId),
  field: fieldOf([]),
  problem,
})

/** Validates one draft over the snapshot; a rule that throws counts as broken (fail closed). */
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

function keep(key: string, verdict: Verdict): Verdict {
  verdicts.delete(key)
  if (verdicts.size >= VERDICTS_KEPT) verdicts.delete(verdicts.keys().next().value!)
  verdicts.set(key, verdict)
  return verdict
}

const restsOn = (verdict: Verdict) => [...verdict.referenced, ...verdict.found]

// Sanity's validation waits a timer between a document's levels, so one at a time mostly waits;
// hundreds at once spend their time collecting each other's garbage.
const VALIDATIONS_AT_ONCE = 8

const isDraft = (doc: StoredDocument) => typeof doc._originalId === 'string'

const asBroken = ({ field, problem }: ContentProblem): BrokenRule => ({
  field,
  path: field === fieldOf([]) ? null : field,
  message: problem,
})

const draftsIn = (documents: StoredDocument[]) => new Set(documents.filter(isDraft))

const newestFirst = (a: StoredDocument, b: StoredDocument) => {
  const at = (doc: StoredDocument) => (typeof doc._updatedAt === 'string' ? doc._updatedAt : '')
  return at(b) < at(a) ? -1 : at(b) > at(a) ? 1 : 0
}

/**
 * Vets a perspective's view: each draft (with `_originalId`) must pass `refusal` and the schema's
 * rules over the view; one that fails is replaced by its published version or left out, and the
 * drafts resting on it are checked again, until none fails (docs/content.md, "Cost").
 * @param unplaced the drafts the perspective could not place, each reported as it is
 * @returns the view to query (same order), the drafts in it, and those taken out
 */
export async function vetView(
  view: StoredDocument[],
  publishedOf: (publishedId: string) => StoredDocument | undefined,
  unplaced: readonly Unplaced[] = [],
): Promise<VettedView> {
  // An unplaced draft keeps its stored id as its published one.
  const rejected: RejectedDraft[] = unplaced.map(({ doc, reason }) => ({
    storedId: doc._id,
    publishedId: doc._id,
    type: shortened(doc._type),
    title: draftTitle(doc),
    errors: [asBroken(wholeDocument(doc, reason))],
    instead: 'nothing',
  }))
  let documents = view
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
        errors: errors.map(asBroken),
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

  const dependents = new Map<string, Set<StoredDocument>>()
  const dependOn = (doc: StoredDocument, ids: Iterable<string>) => {
    for (const id of ids) {
      let set = dependents.get(id)
      if (!set) dependents.set(id, (set = new Set()))
      set.add(doc)
    }
  }
  /** The drafts' verdicts over the view now: kept ones that hold, or with `validate` new ones; the rest pending. */
  const settle = async (drafts: readonly StoredDocument[], validate: boolean) => {
    const snapshot = prepareSnapshot(documents)
    const broken = new Map<string, ContentProblem[]>()
    const pending: StoredDocument[] = []
    await pMap(
      drafts,
      async (doc) => {
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
      },
      { concurrency: VALIDATIONS_AT_ONCE },
    )
    return { broken, pending }
  }

  const viewWithout = (drafts: ReadonlySet<StoredDocument>) =>
    documents.flatMap((doc) => {
      if (!drafts.has(doc)) return [doc]
      const published = publishedOf(doc._id)
      return published ? [published] : []
    })
  // Validates ahead, over the view without them, the drafts resting on those being validated:
  // a cascade through a chain of drafts would otherwise wait one validation at a time.
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
      const inView = draftsIn(documents)
      layer = [...next].filter((doc) => inView.has(doc))
      if (layer.length === 0) break
      const snapshot = prepareSnapshot(viewWithout(out))
      for (const doc of layer) {
        guesses.push({ doc, snapshot })
        out.add(doc)
      }
    }
    await pMap(
      guesses,
      async ({ doc, snapshot }) => {
        const key = keys.get(doc)!
        const kept = verdicts.get(key)
        if (!kept || changesOf(kept, snapshot)) guessed.set(key, await verdictOf(doc, snapshot))
      },
      { concurrency: VALIDATIONS_AT_ONCE },
    )
  }

  // Kept verdicts first (free), then the pending drafts, then every draft left once more over the final view.
  for (;;) {
    let { broken, pending } = await settle(documents.filter(isDraft), false)
    if (broken.size === 0 && pending.length === 0) break
    for (;;) {
      while (broken.size > 0) {
        const taken = [...broken.keys()]
        takeOut(broken)
        const inView = draftsIn(documents)
        const suspects = new Set<StoredDocument>()
        for (const id of taken)
          for (const doc of dependents.get(id) ?? []) if (inView.has(doc)) suspects.add(doc)
        const next = await settle([...suspects], false)
        broken = next.broken
        pending.push(...next.pending)
      }
      const inView = draftsIn(documents)
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
  // A rule's message can quote a draft's value: the banner's text carries no stega.
  return { documents, shown: stegaClean(shown), rejected: stegaClean(rejected) }
}
