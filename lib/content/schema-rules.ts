/** Runs the Studio schema's own validation rules offline over a dataset snapshot (docs/content.md). */
import { Schema } from '@sanity/schema'
import { builtinTypes } from '@sanity/schema/_internal'
import type { Path, SanityDocument, Schema as CompiledSchema } from '@sanity/types'
import { toString as pathToString } from '@sanity/util/paths'
import { validateDocumentWithWorkspace, type ValidationClient } from '@sanity/validation'
import { getFallbackLocaleSource, inferFromSchema } from '@sanity/validation/_internal'
import { schemaTypes } from '../../studio/schemaTypes/index.ts'
import { idsIn, resultHash, scannedTypes, touches, type ReadRecord } from './reads.ts'
import { snapshotQuery, type SnapshotQuery } from './scan-narrowing.ts'
import type { StoredDocument } from './stored-document.ts'
import { ContentError, type ContentProblem } from './build-rules.ts'

let compiled: CompiledSchema | undefined

/** The site's schema compiled as the Studio compiles it. @throws Error when Sanity's packages change shape */
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

const SITE_DOCUMENT_TYPES = new Set<string>(
  schemaTypes.filter((type) => type.type === 'document').map((type) => type.name),
)

function offline(what: string): never {
  throw new Error(
    `a validation rule called the Sanity client's ${what}, which needs the network; the build validates ` +
      'offline against its snapshot: make the rule use `getClient(...).fetch(groq)`, which the snapshot answers',
  )
}

export type RuleRead = Omit<ReadRecord, 'scope'>

/** A Sanity client for validation rules: GROQ from the snapshot (each run given to `record`), no network. */
export function snapshotClient(
  documents: StoredDocument[] | SnapshotQuery,
  record?: (read: RuleRead, result: unknown) => void,
): ValidationClient {
  const evaluate = typeof documents === 'function' ? documents : snapshotQuery(documents)
  const client = {
    fetch: async (query: string, params: Record<string, unknown> = {}) => {
      const result = evaluate(query, params)
      const types = scannedTypes(query, params)
      record?.({ query, params, hash: resultHash(result), ids: idsIn(result), types }, result)
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

/** A field path as Sanity writes it, e.g. `issue[_key=="a1"].markDefs[_key=="b2"].href`. */
export const fieldOf = (path: Path): string => (path.length ? pathToString(path) : '(document)')

/** What the schema's rules found: errors, warnings, and each document's rule queries (`rulesReadChange`). */
export type SchemaFindings = Omit<DocumentFindings, 'reads' | 'found'> & {
  documents: number
  ruleReads: Record<string, RuleRead[]>
}

const storedIdOf = (doc: StoredDocument) => (typeof doc._originalId === 'string' ? doc._originalId : doc._id)

export type PreparedSnapshot = { evaluate: SnapshotQuery; ids: ReadonlySet<string> }

export function prepareSnapshot(documents: StoredDocument[]): PreparedSnapshot {
  return { evaluate: snapshotQuery(documents), ids: new Set(documents.map((doc) => doc._id)) }
}

let locale: ReturnType<typeof getFallbackLocaleSource> | undefined
const fallbackLocale = () => (locale ??= getFallbackLocaleSource())

export const isSiteDocumentType = (type: unknown): boolean =>
  typeof type === 'string' && SITE_DOCUMENT_TYPES.has(type)

/** One document's findings, its rules' queries, and the snapshot `_id`s they answered with. */
export type DocumentFindings = {
  errors: ContentProblem[]
  warnings: ContentProblem[]
  reads: RuleRead[]
  found: string[]
}

export function snapshotIdsIn(result: unknown, ids: ReadonlySet<string>, into: Set<string>): void {
  if (typeof result === 'string') {
    if (ids.has(result)) into.add(result)
  } else if (result && typeof result === 'object')
    for (const value of Array.isArray(result) ? result : Object.values(result))
      snapshotIdsIn(value, ids, into)
}

/** Runs the schema's rules on one document of a prepared snapshot. @throws whatever a rule throws */
export async function validateDocument(
  snapshot: PreparedSnapshot,
  document: StoredDocument,
): Promise<DocumentFindings> {
  // A client per document, so each read is filed under the document whose rule ran it.
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
    // The CLI environment's unknown-field warning would turn an object field's rules into warnings.
    environment: 'studio',
  })
  const problems = (level: string) =>
    markers
      .filter((marker) => marker.level === level)
      .map((marker) => ({
        documentId: storedIdOf(document),
        field: fieldOf(marker.path),
        problem: marker.message,
      }))
  return {
    errors: problems('error'),
    warnings: problems('warning'),
    reads: [...reads.values()].sort((a, b) => ruleReadKey(a).localeCompare(ruleReadKey(b))),
    found: [...found].sort(),
  }
}

/** Runs the schema's rules over the snapshot's site documents (`only` these `_id`s, when given). */
export async function validateSnapshot(
  documents: StoredDocument[],
  only?: ReadonlySet<string>,
): Promise<SchemaFindings> {
  const snapshot = prepareSnapshot(documents)
  const shown = documents.filter((doc) => isSiteDocumentType(doc._type) && (!only || only.has(doc._id)))
  const found = await Promise.all(shown.map((document) => validateDocument(snapshot, document)))
  const ruleReads = shown
    .map((document, index): [string, RuleRead[]] => [document._id, found[index]!.reads])
    .filter(([, reads]) => reads.length > 0)
    .sort(([a], [b]) => a.localeCompare(b))
  return {
    errors: found.flatMap((findings) => findings.errors),
    warnings: found.flatMap((findings) => findings.warnings),
    documents: shown.length,
    ruleReads: Object.fromEntries(ruleReads),
  }
}

const ruleReadKey = (read: RuleRead) => JSON.stringify([read.query, read.params])

/**
 * The `_id`s (sorted) whose rules must run again after a change, the changed ones aside: a recorded
 * rule query the change could touch now gives another result.
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

/** Validates a snapshot, warnings through `warn`. @throws ContentError listing every error */
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
