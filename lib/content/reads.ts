/** The build's dependency map as recorded: every query a page runs while the build renders (docs/speed.md). */
import { appendFileSync, mkdirSync } from 'node:fs'
import { createHash } from 'node:crypto'
import path from 'node:path'
import { parse } from 'groq-js'

/**
 * Whose read it is: a dynamic route's page (`{ route, unit }`), `always` (rendered by every build),
 * `paths` (`generateStaticParams`); none: every page's (a change there renders all).
 */
export type ReadScope = { route: string; unit: string } | 'always' | 'paths'

export type ReadRecord = {
  scope: ReadScope | null
  query: string
  params: Record<string, unknown>
  hash: string
  ids: string[]
  types: readonly string[] | null
}

type Node = { type: string; [key: string]: unknown }

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

/** The sorted types a query's `*[...]` scans can read (not `->`); null when a `*` is not filtered by type. */
export function scannedTypes(query: string, params: Record<string, unknown> = {}): readonly string[] | null {
  const key = `${query}\u0000${JSON.stringify(params)}`
  if (!scannedTypesByQuery.has(key)) {
    if (scannedTypesByQuery.size >= SCANNED_TYPES_KEPT) scannedTypesByQuery.clear()
    scannedTypesByQuery.set(key, typesScannedBy(query, params))
  }
  return scannedTypesByQuery.get(key)!
}

// A long-running preview server asks with ever new params.
const SCANNED_TYPES_KEPT = 10_000
const scannedTypesByQuery = new Map<string, readonly string[] | null>()

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

/** Whether a change (ids, and types before and after) could touch a recorded read: a changed id in its result, or a scanned type. */
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

const written = new Set<string>()

/** Writes one read (its hash and ids) when the build records, one file per process; else does nothing. */
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
