/**
 * The Studio schema's own validation rules, run by the build, offline. Every rule an
 * editor sees in Sanity Studio (required fields, lengths, the slug pattern, 3 or 5 steps,
 * https-only links, ...) is written once, in `studio/schemaTypes/`, and this module runs
 * exactly those rules over every document of a dataset snapshot, however the document
 * reached the dataset (the Studio, the API, an import, a migration script). The snapshot
 * is the dataset as a source's perspective shows it (`readAllDocuments` in `source.ts`):
 * for the build, the published documents, so the rules run on exactly what the build
 * renders; a source with drafts or a release over them gives those in their place.
 *
 * It uses Sanity's own packages: `@sanity/schema` compiles the types as the Studio does
 * (beside Sanity's built-in types), `@sanity/validation` runs the rules as the Studio does
 * (`environment: 'studio'`, so a field's level is the schema's: the CLI environment adds an
 * unknown-field check with `.warning()`, which turns every rule of an object field, an
 * image's `required()` included, into a warning).
 * - References are checked against the snapshot's ids.
 * - Rules that query (the slug's uniqueness, the legacy id's) query the snapshot with
 *   `groq-js`, Sanity's GROQ engine; anything else that would need the network throws,
 *   so that rule fails the build loudly instead of passing silently.
 * What the schema cannot say (asset files, safe inline drawings, lists a page cannot do
 * without) stays in build code: `build-rules.ts` and `media-sync.ts`.
 */
import { Schema } from '@sanity/schema'
import { builtinTypes } from '@sanity/schema/_internal'
import type { Path, SanityDocument, Schema as CompiledSchema } from '@sanity/types'
import { toString as pathToString } from '@sanity/util/paths'
import { validateDocumentWithWorkspace, type ValidationClient } from '@sanity/validation'
import { getFallbackLocaleSource, inferFromSchema } from '@sanity/validation/_internal'
import { evaluateSync, parse, toJS } from 'groq-js'
import { schemaTypes } from '../../studio/schemaTypes/index.ts'
import { idsIn, resultHash, scannedTypes, touches, type ReadRecord } from './reads.ts'
import { narrowScan } from './scan-narrowing.ts'
import type { StoredDocument } from './source.ts'
import { ContentError, type ContentProblem } from './build-rules.ts'

let compiled: CompiledSchema | undefined

/**
 * The site's schema compiled as Sanity Studio compiles it (`createSchema` in `sanity`:
 * the project's types over Sanity's built-in ones, then the validation rules inferred).
 * @throws Error naming what it expected when Sanity's packages change shape
 */
export function siteSchema(): CompiledSchema {
  if (compiled) return compiled
  if (!Array.isArray(builtinTypes) || typeof inferFromSchema !== 'function')
    throw new Error(
      'schema-rules: @sanity/schema/_internal no longer exports `builtinTypes` (an array), or ' +
        '@sanity/validation/_internal no longer exports `inferFromSchema`: compare with `createSchema` in `sanity`',
    )
  const builtin = Schema.compile({ name: 'builtin', types: builtinTypes })
  const schema = Schema.compile({ name: 'site', types: schemaTypes, parent: builtin }) as CompiledSchema
  inferFromSchema(schema)
  compiled = schema
  return schema
}

/** The project's own document types (Sanity's asset documents are checked by the build's rules, `build-rules.ts`). */
const SITE_DOCUMENT_TYPES = new Set<string>(
  schemaTypes.filter((type) => type.type === 'document').map((type) => type.name),
)

function offline(what: string): never {
  throw new Error(
    `a validation rule called the Sanity client's ${what}, which needs the network; the build validates ` +
      'offline against its snapshot: make the rule use `getClient(...).fetch(groq)`, which the snapshot answers',
  )
}

/** A query a rule ran, as the dependency map keeps it (lib/content/reads.ts). */
export type RuleRead = Omit<ReadRecord, 'scope'>

/** Answers GROQ from a snapshot, synchronously: `(query, params) => result`. */
export type SnapshotQuery = (query: string, params?: Record<string, unknown>) => unknown

/** Each rule query's parse tree, for every snapshot (the rules ask a handful of queries). */
const trees = new Map<string, ReturnType<typeof parse>>()
const TREES_KEPT = 1_000

/**
 * GROQ over a snapshot with groq-js, Sanity's GROQ engine: its synchronous evaluator (several
 * times faster than its async one; the snapshot is all in memory), over only the types a
 * query can scan (`scannedTypes`) and, of those, the documents a lookup by value can match
 * (`narrowScan`): the uniqueness and link rules run one query per case study, and a large
 * dataset's validation, or a preview's hundreds of drafts, stays within budget (`npm run bench`).
 * @param documents every document of the snapshot (as the source's perspective shows them)
 */
export function snapshotQuery(documents: StoredDocument[]): SnapshotQuery {
  const byType = Map.groupBy(documents, (doc) => doc._type)
  return (query, params = {}) => {
    let tree = trees.get(query)
    if (!tree) {
      if (trees.size >= TREES_KEPT) trees.clear()
      trees.set(query, (tree = parse(query)))
    }
    const types = scannedTypes(query, params)
    const scanned = types ? types.flatMap((type) => byType.get(type) ?? []) : documents
    const dataset = narrowScan(query, params, scanned)
    // `toJS`: the value itself (a synchronous evaluation's `get()` still answers with a promise).
    return toJS(evaluateSync(tree, { dataset, params }))
  }
}

/**
 * A Sanity client for validation rules that answers GROQ from the snapshot
 * (`snapshotQuery`) and throws on anything that would need the network.
 * @param documents every document of the snapshot, or its `snapshotQuery`
 * @param record is given every query the rules run, with its result's hash, ids and types,
 *   and the result itself
 */
export function snapshotClient(
  documents: StoredDocument[] | SnapshotQuery,
  record?: (read: RuleRead, result: unknown) => void,
): ValidationClient {
  const evaluate = typeof documents === 'function' ? documents : snapshotQuery(documents)
  const client = {
    fetch: async (query: string, params: Record<string, unknown> = {}) => {
      const result = evaluate(query, params)
      record?.(
        {
          query,
          params,
          hash: resultHash(result),
          ids: idsIn(result),
          types: scannedTypes(query, params),
        },
        result,
      )
      return result
    },
    getDataUrl: () => offline('getDataUrl'),
    observable: {
      fetch: () => offline('observable.fetch'),
      request: () => offline('observable.request'),
    },
    withConfig: () => client,
  }
  return client as unknown as ValidationClient
}

/** A field path as Sanity writes it, e.g. `image.alt`, `details[2]`, `issue[_key=="a1"].markDefs[_key=="b2"].href`. */
export const fieldOf = (path: Path): string => (path.length ? pathToString(path) : '(document)')

/**
 * What the schema's rules found in a snapshot: errors fail the build, warnings are printed;
 * how many documents were validated, and the queries each one's rules ran (by `_id`, only
 * documents whose rules queried), which decide what a later change must validate again
 * (`rulesReadChange`).
 */
export type SchemaFindings = {
  errors: ContentProblem[]
  warnings: ContentProblem[]
  documents: number
  ruleReads: Record<string, RuleRead[]>
}

/**
 * The id an editor finds a document by: a draft's or release version's own id
 * (`_originalId`, which a perspective keeps) where the snapshot shows one, else `_id`.
 */
const storedIdOf = (doc: StoredDocument) => (typeof doc._originalId === 'string' ? doc._originalId : doc._id)

/**
 * A snapshot made ready for the rules once, however many of its documents they then
 * validate: its GROQ (`snapshotQuery`) and its `_id`s (the reference rule asks).
 */
export type PreparedSnapshot = { evaluate: SnapshotQuery; ids: ReadonlySet<string> }

/** Prepares a snapshot for `validateDocument`: one pass over it, not one per document validated. */
export function prepareSnapshot(documents: StoredDocument[]): PreparedSnapshot {
  return { evaluate: snapshotQuery(documents), ids: new Set(documents.map((doc) => doc._id)) }
}

let locale: ReturnType<typeof getFallbackLocaleSource> | undefined
/** The rules' messages in the Studio's default language (made once). */
const fallbackLocale = () => (locale ??= getFallbackLocaleSource())

/** Whether the schema's rules apply to a document type: the project's own document types. */
export const isSiteDocumentType = (type: unknown): boolean =>
  typeof type === 'string' && SITE_DOCUMENT_TYPES.has(type)

/**
 * What the rules found in one document; the queries they ran (sorted); and the `_id`s of the
 * snapshot's documents those queries answered with, as `_id` fields or as values (a rule's
 * `*[...]._id`), sorted: the documents whose leaving the snapshot can change its verdict.
 */
export type DocumentFindings = {
  errors: ContentProblem[]
  warnings: ContentProblem[]
  reads: RuleRead[]
  found: string[]
}

/**
 * Every string in a query's result that is an `_id` of the snapshot (as a value or an `_id`
 * field), added to `into`.
 */
export function snapshotIdsIn(result: unknown, ids: ReadonlySet<string>, into: Set<string>): void {
  if (typeof result === 'string') {
    if (ids.has(result)) into.add(result)
  } else if (result && typeof result === 'object')
    for (const value of Array.isArray(result) ? result : Object.values(result))
      snapshotIdsIn(value, ids, into)
}

/**
 * Runs the schema's rules on one document of the snapshot.
 * @param snapshot the snapshot it is part of (`prepareSnapshot`)
 * @param document one of its documents of the project's types
 * @returns its errors and warnings, each naming its stored id (`storedIdOf`), the field
 *   path and the rule's message, and the queries its rules ran
 * @throws whatever a rule throws (one that needs the network: `offline`)
 */
export async function validateDocument(
  snapshot: PreparedSnapshot,
  document: StoredDocument,
): Promise<DocumentFindings> {
  // A client of the document's own, so that each read is filed under the document whose rule ran it.
  const reads = new Map<string, RuleRead>()
  const found = new Set<string>()
  const client = snapshotClient(snapshot.evaluate, (read, result) => {
    reads.set(ruleReadKey(read), read)
    snapshotIdsIn(result, snapshot.ids, found)
  })
  const markers = await validateDocumentWithWorkspace({
    document: document as SanityDocument,
    workspace: { schema: siteSchema(), i18n: fallbackLocale(), getClient: () => client } as never,
    getDocumentExists: async ({ id }) => snapshot.ids.has(id),
    environment: 'studio',
  })
  const findings: DocumentFindings = {
    errors: [],
    warnings: [],
    reads: [...reads.values()].sort((a, b) => ruleReadKey(a).localeCompare(ruleReadKey(b))),
    found: [...found].sort(),
  }
  for (const marker of markers) {
    const problem = { documentId: storedIdOf(document), field: fieldOf(marker.path), problem: marker.message }
    if (marker.level === 'error') findings.errors.push(problem)
    else if (marker.level === 'warning') findings.warnings.push(problem)
  }
  return findings
}

/**
 * Runs the schema's rules over every document of the project's types in the snapshot.
 * @param documents the dataset through a source's perspective (`readAllDocuments`)
 * @param only validate just these `_id`s (a publish's changed documents); the rules'
 *   queries still read the whole snapshot
 * @returns errors and warnings, each naming the document (its stored id, e.g.
 *   `drafts.<id>` for a draft the perspective shows), the field path and the rule's message
 */
export async function validateSnapshot(
  documents: StoredDocument[],
  only?: ReadonlySet<string>,
): Promise<SchemaFindings> {
  const snapshot = prepareSnapshot(documents)
  const shown = documents.filter((doc) => isSiteDocumentType(doc._type) && (!only || only.has(doc._id)))
  const findings: SchemaFindings = { errors: [], warnings: [], documents: shown.length, ruleReads: {} }
  const found = await Promise.all(shown.map((document) => validateDocument(snapshot, document)))
  shown.forEach((document, index) => {
    const { errors, warnings, reads } = found[index]!
    findings.errors.push(...errors)
    findings.warnings.push(...warnings)
    if (reads.length) findings.ruleReads[document._id] = reads
  })
  findings.ruleReads = Object.fromEntries(
    Object.entries(findings.ruleReads).sort(([a], [b]) => a.localeCompare(b)),
  )
  return findings
}

const ruleReadKey = (read: RuleRead) => JSON.stringify([read.query, read.params])

/**
 * The documents whose rules must run again after a change, besides the changed ones: those
 * with a recorded rule query that a changed document could touch (its id in the result, or
 * its type scanned) and that gives another result over the new snapshot. A case study's
 * title edited touches every address rule's query, but none of their results: nothing
 * else is validated; its slug changed to one another case study links to: that one is.
 * @param ruleReads the live build's `SchemaFindings.ruleReads`
 * @param changed the changed documents' ids, and their types before and after
 * @param documents the new snapshot
 * @returns the `_id`s to validate again (the changed ones not included), sorted
 */
export function rulesReadChange(
  ruleReads: Readonly<Record<string, readonly RuleRead[]>>,
  changed: { ids: ReadonlySet<string>; types: ReadonlySet<string> },
  documents: StoredDocument[],
): string[] {
  const evaluate = snapshotQuery(documents)
  const verdicts = new Map<string, boolean>()
  const differs = (read: RuleRead): boolean => {
    if (!touches(read, changed)) return false
    const key = ruleReadKey(read)
    let verdict = verdicts.get(key)
    if (verdict === undefined)
      verdicts.set(key, (verdict = resultHash(evaluate(read.query, read.params)) !== read.hash))
    return verdict
  }
  return Object.entries(ruleReads)
    .filter(([id, reads]) => !changed.ids.has(id) && reads.some(differs))
    .map(([id]) => id)
    .sort()
}

/**
 * Validates a snapshot and fails on the first report of errors.
 * @param warn where warnings go (default: stderr)
 * @param only validate just these `_id`s (see `validateSnapshot`)
 * @throws ContentError listing every error (document `_id`, field, the rule's message)
 */
export async function assertValidSnapshot(
  documents: StoredDocument[],
  warn: (line: string) => void = (line) => console.warn(line),
  only?: ReadonlySet<string>,
): Promise<SchemaFindings> {
  const findings = await validateSnapshot(documents, only)
  for (const warning of findings.warnings)
    warn(`Content warning: document "${warning.documentId}", field "${warning.field}": ${warning.problem}`)
  if (findings.errors.length) throw ContentError.of(findings.errors)
  return findings
}
