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
 * without) stays in build code: `validate.ts` and `media.ts`.
 */
import { Schema } from '@sanity/schema'
import { builtinTypes } from '@sanity/schema/_internal'
import type { Path, SanityDocument, Schema as CompiledSchema } from '@sanity/types'
import { toString as pathToString } from '@sanity/util/paths'
import { validateDocumentWithWorkspace, type ValidationClient } from '@sanity/validation'
import { getFallbackLocaleSource, inferFromSchema } from '@sanity/validation/_internal'
import { evaluateSync, parse } from 'groq-js'
import { schemaTypes } from '../../studio/schemaTypes/index.ts'
import { scannedTypes } from './reads.ts'
import type { StoredDocument } from './source.ts'
import { ContentError, type ContentProblem } from './validate.ts'

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
      'schema-validation: @sanity/schema/_internal no longer exports `builtinTypes` (an array), or ' +
        '@sanity/validation/_internal no longer exports `inferFromSchema`: compare with `createSchema` in `sanity`',
    )
  const builtin = Schema.compile({ name: 'builtin', types: builtinTypes })
  const schema = Schema.compile({ name: 'site', types: schemaTypes, parent: builtin }) as CompiledSchema
  inferFromSchema(schema)
  compiled = schema
  return schema
}

/** The project's own document types (Sanity's asset documents are checked by the build's rules, `validate.ts`). */
const SITE_DOCUMENT_TYPES = new Set<string>(
  schemaTypes.filter((type) => type.type === 'document').map((type) => type.name),
)

function offline(what: string): never {
  throw new Error(
    `a validation rule called the Sanity client's ${what}, which needs the network; the build validates ` +
      'offline against its snapshot: make the rule use `getClient(...).fetch(groq)`, which the snapshot answers',
  )
}

/**
 * A Sanity client for validation rules that answers GROQ from the snapshot (groq-js) and
 * throws on anything that would need the network.
 * @param documents every document of the snapshot (as the source's perspective shows them)
 * @param readTypes collects the types the rules' queries scan (null: any type)
 */
export function snapshotClient(
  documents: StoredDocument[],
  readTypes?: Set<string | null>,
): ValidationClient {
  const byType = Map.groupBy(documents, (doc) => doc._type)
  const trees = new Map<string, ReturnType<typeof parse>>()
  const client = {
    fetch: async (query: string, params: Record<string, unknown> = {}) => {
      let tree = trees.get(query)
      if (!tree) trees.set(query, (tree = parse(query)))
      // The uniqueness rules run one query per case study: over the types the query can
      // scan only, a large dataset's validation stays within its budget (`npm run bench`).
      const types = scannedTypes(query, params)
      for (const type of types ?? [null]) readTypes?.add(type)
      const dataset = types ? types.flatMap((type) => byType.get(type) ?? []) : documents
      // groq-js's synchronous evaluator: several times faster than its async one, and the
      // snapshot is all in memory.
      return evaluateSync(tree, { dataset, params }).get()
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
 * how many documents were validated, and the document types the rules' queries read
 * (`null` in it: a query that can read any type), which decides what a later change
 * must validate again (`validateSnapshot`'s `only`).
 */
export type SchemaFindings = {
  errors: ContentProblem[]
  warnings: ContentProblem[]
  documents: number
  ruleTypes: (string | null)[]
}

/**
 * The id an editor finds a document by: a draft's or release version's own id
 * (`_originalId`, which a perspective keeps) where the snapshot shows one, else `_id`.
 */
const storedIdOf = (doc: StoredDocument) => (typeof doc._originalId === 'string' ? doc._originalId : doc._id)

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
  const schema = siteSchema()
  const readTypes = new Set<string | null>()
  const client = snapshotClient(documents, readTypes)
  const ids = new Set(documents.map((doc) => doc._id))
  const workspace = { schema, i18n: getFallbackLocaleSource(), getClient: () => client }
  const shown = documents.filter((doc) => SITE_DOCUMENT_TYPES.has(doc._type) && (!only || only.has(doc._id)))
  const findings: SchemaFindings = { errors: [], warnings: [], documents: shown.length, ruleTypes: [] }
  const markers = await Promise.all(
    shown.map((document) =>
      validateDocumentWithWorkspace({
        document: document as SanityDocument,
        workspace: workspace as never,
        getDocumentExists: async ({ id }) => ids.has(id),
        environment: 'studio',
      }).then((found) => ({ document, found })),
    ),
  )
  for (const { document, found } of markers)
    for (const marker of found) {
      const problem = {
        documentId: storedIdOf(document),
        field: fieldOf(marker.path),
        problem: marker.message,
      }
      if (marker.level === 'error') findings.errors.push(problem)
      else if (marker.level === 'warning') findings.warnings.push(problem)
    }
  findings.ruleTypes = [...readTypes].sort()
  return findings
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
