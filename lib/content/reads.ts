/**
 * The build's dependency map, as it is recorded: which content each page read. While a
 * build renders (CONTENT_READS_DIR set by scripts/build.ts), every query a page runs is
 * written down with its parameters, a hash of its result, the documents in that result
 * and the document types the query scans. The next publish re-runs only the queries a
 * changed document could touch and renders again only the pages whose results changed
 * (scripts/build/render-plan.ts); every other page is taken from the live build.
 *
 * Which page a read belongs to is its scope, given by the route through its content
 * source (`ContentSource.reads`):
 * - a page of a dynamic route (`{ route, unit }`: the route's pattern and the value of its
 *   one parameter, e.g. `/case-studies/[slug]` and `osteopath-lancing`): the page's own;
 * - `always`: a page rendered by every build anyway (the home page, the sitemap);
 * - `paths`: a route's list of its pages (`generateStaticParams`), compared as a list;
 * - none (the layout, anything not marked): every page's. A change there renders all.
 * An unmarked read can only cost time, never leave a page stale.
 */
import { appendFileSync, mkdirSync } from 'node:fs'
import { createHash } from 'node:crypto'
import path from 'node:path'
import { parse } from 'groq-js'

/** Whose read it is (see the module comment). */
export type ReadScope = { route: string; unit: string } | 'always' | 'paths'

/** One recorded query run, as a line of the recording. */
export type ReadRecord = {
  scope: ReadScope | null
  query: string
  params: Record<string, unknown>
  /** sha1 of the result's JSON. */
  hash: string
  /** Every `_id` in the result (the documents found, and those references led to). */
  ids: string[]
  /** The types its `*` scans can match; null: any type. */
  types: readonly string[] | null
}

type Node = { type: string; [key: string]: unknown }

/** The `_type` values a filter's top-level conditions (joined by &&) allow; null: any. */
function typesOfFilter(expr: Node): string[] | null {
  if (expr.type === 'And') {
    const left = typesOfFilter(expr.left as Node)
    const right = typesOfFilter(expr.right as Node)
    if (left && right) return left.filter((type) => right.includes(type))
    return left ?? right
  }
  if (expr.type === 'Group') return typesOfFilter(expr.base as Node)
  if (expr.type !== 'OpCall') return null
  const left = expr.left as Node
  if (left.type !== 'AccessAttribute' || left.name !== '_type' || left.base) return null
  const right = expr.right as Node
  if (expr.op === '==' && right.type === 'Value' && typeof right.value === 'string') return [right.value]
  if (expr.op === 'in' && right.type === 'Array') {
    const values = (right.elements as Node[]).map((element) => (element.value as Node | undefined)?.value)
    return values.every((value) => typeof value === 'string') ? (values as string[]) : null
  }
  return null
}

/**
 * The document types a GROQ query can read by scanning the dataset: the `_type` each of
 * its `*[...]` filters requires (`_type == "x"`, `_type in ["x", "y"]`, joined by `&&`).
 * References it follows (`->`) are not scans: the recording keeps their ids instead.
 * @returns the types, sorted; null when some `*` is not filtered by type (any document)
 * @throws GroqSyntaxError when the query does not parse
 */
export function scannedTypes(query: string, params: Record<string, unknown> = {}): readonly string[] | null {
  const key = `${query}\u0000${JSON.stringify(params)}`
  if (!scannedTypesByQuery.has(key)) {
    // The evaluation and the recording of one query both ask: parsed once, not each time.
    if (scannedTypesByQuery.size >= SCANNED_TYPES_KEPT) scannedTypesByQuery.clear()
    scannedTypesByQuery.set(key, typesScannedBy(query, params))
  }
  return scannedTypesByQuery.get(key)!
}

/** How many queries' `scannedTypes` are kept (a long-running preview server asks with ever new params). */
const SCANNED_TYPES_KEPT = 10_000
const scannedTypesByQuery = new Map<string, readonly string[] | null>()

/** `scannedTypes`, worked out. */
function typesScannedBy(query: string, params: Record<string, unknown>): readonly string[] | null {
  const types = new Set<string>()
  let anyType = false
  const visit = (node: unknown, parent: Node | null): void => {
    if (!node || typeof node !== 'object') return
    if (Array.isArray(node)) return node.forEach((child) => visit(child, parent))
    const current = node as Node
    if (current.type === 'Everything') {
      const filtered = parent?.type === 'Filter' && parent.base === current
      const allowed = filtered ? typesOfFilter(parent.expr as Node) : null
      if (allowed) allowed.forEach((type) => types.add(type))
      else anyType = true
      return
    }
    for (const value of Object.values(current)) visit(value, current)
  }
  visit(parse(query, { params }), null)
  return anyType ? null : Object.freeze([...types].sort())
}

/** Every `_id` string in a query's result, sorted. */
export function idsIn(result: unknown): string[] {
  const ids = new Set<string>()
  const visit = (value: unknown): void => {
    if (!value || typeof value !== 'object') return
    if (Array.isArray(value)) return value.forEach(visit)
    for (const [key, child] of Object.entries(value)) {
      if (key === '_id' && typeof child === 'string') ids.add(child)
      else visit(child)
    }
  }
  visit(result)
  return [...ids].sort()
}

/**
 * Whether a change could touch a recorded read: its result held a changed document, or
 * its query scans a changed document's type (or any type). Only such a read is run again.
 * @param changed the changed documents' ids, and their types before and after
 */
export function touches(
  read: Pick<ReadRecord, 'ids' | 'types'>,
  changed: { ids: ReadonlySet<string>; types: ReadonlySet<string> },
): boolean {
  return (
    read.types === null ||
    read.types.some((type) => changed.types.has(type)) ||
    read.ids.some((id) => changed.ids.has(id))
  )
}

/** sha1 of a query result's JSON: two results with the same hash render the same. */
export const resultHash = (result: unknown): string =>
  createHash('sha1')
    .update(JSON.stringify(result) ?? 'undefined')
    .digest('hex')

/** Reads already written by this process (the same read is written once). */
const written = new Set<string>()

/**
 * Writes one read down when the build records (CONTENT_READS_DIR), one file per process
 * (Next renders in workers). Does nothing otherwise (`next dev`, the preview server, jest).
 * @param result the query's result (its hash and ids are kept, not the result)
 */
export function recordRead(
  scope: ReadScope | undefined,
  query: string,
  params: Record<string, unknown>,
  result: unknown,
  dir = process.env.CONTENT_READS_DIR,
): void {
  if (!dir) return
  if (result instanceof Promise || (result && typeof (result as { then?: unknown }).then === 'function'))
    throw new Error(`recordRead: the result of a query is a promise, not its value: ${query.slice(0, 60)}`)
  const key = JSON.stringify([scope ?? null, query, params])
  if (written.has(`${dir}\u0000${key}`)) return
  written.add(`${dir}\u0000${key}`)
  const record: ReadRecord = {
    scope: scope ?? null,
    query,
    params,
    hash: resultHash(result),
    ids: idsIn(result),
    types: scannedTypes(query, params),
  }
  mkdirSync(dir, { recursive: true })
  appendFileSync(path.join(dir, `${process.pid}.ndjson`), JSON.stringify(record) + '\n')
}
