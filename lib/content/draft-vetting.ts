/**
 * Drafts pass the site's rules before they render. Editors' preview shows drafts and
 * release versions (the documents a preview perspective takes from a layer above the
 * published one); unlike published documents, nothing checked them before: an editor can
 * save a draft that breaks a rule (the Studio shows the error, and saves it anyway). Here
 * each one goes through the Studio schema's rules, the very ones the build runs
 * (`validateSnapshot` in `schema-rules.ts`), and one that breaks a rule (level error) is
 * not shown: its published version takes its place, or, when it has none, the document is
 * left out of the view. What was left out, and why, is kept for the preview's banner.
 *
 * Loaded only by a preview perspective's read (`source.ts` imports it on demand): the
 * build reads `published` and never loads the schema for this.
 */
import { createHash } from 'node:crypto'
import type { ContentProblem } from './build-rules.ts'
import { resultHash } from './reads.ts'
import {
  fieldOf,
  snapshotQuery,
  validateSnapshot,
  type RuleRead,
  type SnapshotQuery,
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
  publishedId: string
  type: string
  /** Every rule it breaks (level error). */
  errors: BrokenRule[]
  /** What the view shows instead: the published version, or nothing at all. */
  instead: 'published' | 'nothing'
}

/** A perspective's view with its drafts vetted, and what was taken out of it. */
export type VettedView = { documents: StoredDocument[]; rejected: RejectedDraft[] }

/**
 * The rules' verdict on one revision of a draft, and what it rests on besides the draft
 * itself: the results of the queries its rules ran over the snapshot (the slug's and
 * legacy id's uniqueness, links to case study pages) and which of the documents it
 * references exist. The same draft can be valid over one snapshot and invalid over
 * another (another case study took its slug), so a verdict is reused only while every
 * one of those still answers the same over the view being vetted.
 */
type Verdict = { errors: ContentProblem[]; reads: RuleRead[]; references: string }

/**
 * Verdicts by draft revision: its stored id and a hash of the document as stored (its
 * `_rev` included). A `_rev` alone would do for the Content Lake, which gives every change
 * a new one, but a local dataset file is written by hand and by scripts, and a copied
 * document keeps its `_rev`; hashing one draft costs microseconds. Bounded, oldest first
 * out, for a preview server that runs for weeks.
 */
const verdicts = new Map<string, Verdict>()
const VERDICTS_KEPT = 5_000

/** How many verdicts the rules worked out (a reused one does not count), for tests and benchmarks. */
let validated = 0

/** How many drafts the rules have validated in this process (a reused verdict does not count). */
export const draftsValidated = (): number => validated

const revisionKey = (doc: StoredDocument) =>
  `${String(doc._originalId)}\u0000${createHash('sha1').update(JSON.stringify(doc)).digest('hex')}`

/** Which of the draft's references resolve in the view, e.g. `a:1,b:0` (the reference rule asks). */
const referencesIn = (doc: StoredDocument, ids: ReadonlySet<string>) =>
  [...referencedIds([doc])]
    .sort()
    .map((id) => `${id}:${ids.has(id) ? 1 : 0}`)
    .join(',')

const holds = (verdict: Verdict, doc: StoredDocument, evaluate: SnapshotQuery, ids: ReadonlySet<string>) =>
  verdict.references === referencesIn(doc, ids) &&
  verdict.reads.every((read) => resultHash(evaluate(read.query, read.params)) === read.hash)

/**
 * The largest draft the preview checks, as stored JSON: a hundred times the seed's
 * longest case study. The rules' walk of a draft holds many times its size in memory
 * (a 13 MB draft of 20,000 text blocks took the preview process past 512 MB, again on
 * every start, since every page's queries read it), so a larger one is not shown, and
 * says so, before any rule runs.
 */
export const MAX_PREVIEW_DRAFT_BYTES = 1_000_000

/** Validates one draft over the view; a rule that throws counts as a broken rule (fail closed). */
async function verdictOf(
  doc: StoredDocument,
  view: StoredDocument[],
  ids: ReadonlySet<string>,
): Promise<Verdict> {
  const references = referencesIn(doc, ids)
  const bytes = Buffer.byteLength(JSON.stringify(doc))
  if (bytes > MAX_PREVIEW_DRAFT_BYTES) {
    const size = `${(bytes / 1e6).toFixed(1)} MB`
    const problem = `this draft is ${size}: the preview checks and shows drafts up to ${MAX_PREVIEW_DRAFT_BYTES / 1e6} MB`
    return {
      errors: [{ documentId: String(doc._originalId), field: fieldOf([]), problem }],
      reads: [],
      references,
    }
  }
  validated++
  try {
    const findings = await validateSnapshot(view, new Set([doc._id]))
    return { errors: findings.errors, reads: findings.ruleReads[doc._id] ?? [], references }
  } catch (error) {
    const problem = `could not be checked: ${(error as Error).message}`
    const documentId = String(doc._originalId)
    return { errors: [{ documentId, field: fieldOf([]), problem }], reads: [], references }
  }
}

/**
 * Vets a perspective's view: each document in it from a non-published layer (one with
 * `_originalId`, as `withPerspective` and the Content Lake mark them) must pass the
 * schema's rules over the view. One that breaks a rule is replaced by its published
 * version, or left out when there is none (not by the layer below it: a draft under a
 * release version is not what the editor asked to see either, and is not vetted here); the rest are checked again over what is left
 * (a link to a case study that is no longer in the view breaks), until none breaks.
 * Published documents are not vetted: the build validated them before they went live.
 * @param view the dataset through a preview perspective (`withPerspective`, or the Content Lake's)
 * @param publishedOf the stored published document of an id, if any
 * @returns the view to query, in the same order, and the drafts taken out of it
 */
export async function vetView(
  view: StoredDocument[],
  publishedOf: (publishedId: string) => StoredDocument | undefined,
): Promise<VettedView> {
  let documents = view
  const rejected: RejectedDraft[] = []
  for (;;) {
    const drafts = documents.filter((doc) => typeof doc._originalId === 'string')
    if (drafts.length === 0) break
    const evaluate = snapshotQuery(documents)
    const ids = new Set(documents.map((doc) => doc._id))
    const found = await Promise.all(
      drafts.map(async (doc) => {
        const key = revisionKey(doc)
        let verdict = verdicts.get(key)
        if (!verdict || !holds(verdict, doc, evaluate, ids)) {
          verdict = await verdictOf(doc, documents, ids)
          verdicts.delete(key)
          if (verdicts.size >= VERDICTS_KEPT) verdicts.delete(verdicts.keys().next().value!)
          verdicts.set(key, verdict)
        }
        return { doc, verdict }
      }),
    )
    const broken = new Map(found.filter(({ verdict }) => verdict.errors.length).map((f) => [f.doc._id, f]))
    if (broken.size === 0) break
    documents = documents.flatMap((doc) => {
      const entry = broken.get(doc._id)
      if (!entry) return [doc]
      const published = publishedOf(doc._id)
      rejected.push({
        storedId: String(doc._originalId),
        publishedId: doc._id,
        type: doc._type,
        errors: entry.verdict.errors.map(({ field, problem }) => ({
          field,
          path: field === fieldOf([]) ? null : field,
          message: problem,
        })),
        instead: published ? 'published' : 'nothing',
      })
      return published ? [published] : []
    })
  }
  return { documents, rejected }
}
