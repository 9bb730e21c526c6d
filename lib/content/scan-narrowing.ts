/** GROQ over a snapshot with groq-js, scanning only the documents a query can match: its types, and values it looks up. */
import { evaluateSync, parse, toJS } from 'groq-js'
import { scannedTypes } from './reads.ts'
import type { StoredDocument } from './stored-document.ts'

type Node = { type: string; [key: string]: unknown }

type Needle = { value: string } | { param: string }

/** Whether a node reads a field of the document being filtered: `a`, `a.b`, `@.a` (no `->`, no `^`). */
const isOwnField = (node: Node | undefined): boolean =>
  node?.type === 'AccessAttribute' &&
  (node.base === undefined ||
    (node.base as Node).type === 'This' ||
    isOwnField(node.base as Node | undefined))

const conditionsOf = (expr: Node): Node[] =>
  expr.type === 'And'
    ? [...conditionsOf(expr.left as Node), ...conditionsOf(expr.right as Node)]
    : expr.type === 'Group'
      ? conditionsOf(expr.base as Node)
      : [expr]

/** The values one condition needs a matching document to hold (one of them), or null for any. */
function needlesOf(expr: Node): Needle[] | null {
  if (expr.type === 'Group') return needlesOf(expr.base as Node)
  if (expr.type === 'Or') {
    const left = needlesOf(expr.left as Node)
    const right = needlesOf(expr.right as Node)
    return left && right ? [...left, ...right] : null
  }
  if (expr.type !== 'OpCall' || expr.op !== '==') return null
  const left = expr.left as Node
  const right = expr.right as Node
  const other = isOwnField(left) ? right : isOwnField(right) ? left : null
  if (other?.type === 'Value' && typeof other.value === 'string') return [{ value: other.value }]
  if (other?.type === 'Parameter' && typeof other.name === 'string') return [{ param: other.name }]
  return null
}

/** Per equality (or `||` of them) of a query's one filtered scan, the values needed; null when none. */
function needlesOfQuery(query: string): Needle[][] | null {
  const scans: { node: Node; parent: Node | null }[] = []
  const visit = (node: unknown, parent: Node | null): void => {
    if (!node || typeof node !== 'object') return
    if (Array.isArray(node)) return node.forEach((child) => visit(child, parent))
    const current = node as Node
    if (current.type === 'Everything') scans.push({ node: current, parent })
    for (const value of Object.values(current)) visit(value, current)
  }
  visit(parse(query), null)
  if (scans.length !== 1) return null
  const { node, parent } = scans[0]!
  if (parent?.type !== 'Filter' || parent.base !== node) return null
  const needed = conditionsOf(parent.expr as Node).flatMap((condition) => {
    const needles = needlesOf(condition)
    return needles ? [needles] : []
  })
  return needed.length > 0 ? needed : null
}

const needlesByQuery = new Map<string, Needle[][] | null>()
const NEEDLES_KEPT = 1_000

const stringsByDocument = new WeakMap<object, Set<string>>()
function stringsOf(doc: object): Set<string> {
  let strings = stringsByDocument.get(doc)
  if (strings) return strings
  strings = new Set()
  // Without recursion: a document's depth is not this module's to trust.
  const stack: unknown[] = [doc]
  while (stack.length > 0) {
    const value = stack.pop()
    if (typeof value === 'string') strings.add(value)
    else if (value && typeof value === 'object')
      for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push(child)
  }
  stringsByDocument.set(doc, strings)
  return strings
}

/** The documents a query can match, of those given, in their order; all of them when nothing is certain. */
export function narrowScan<Doc extends object>(
  query: string,
  params: Record<string, unknown>,
  documents: Doc[],
): Doc[] {
  if (!needlesByQuery.has(query)) {
    if (needlesByQuery.size >= NEEDLES_KEPT) needlesByQuery.clear()
    let needles: Needle[][] | null
    try {
      needles = needlesOfQuery(query)
    } catch {
      needles = null // not ours to report: the evaluation itself will
    }
    needlesByQuery.set(query, needles)
  }
  const needed = needlesByQuery.get(query)
  if (!needed) return documents
  const conditions: string[][] = []
  for (const needles of needed) {
    const values = needles.map((needle) => ('value' in needle ? needle.value : params[needle.param]))
    // A parameter that is not a string: `==` could match another kind of value.
    if (values.every((value) => typeof value === 'string')) conditions.push(values as string[])
  }
  if (conditions.length === 0) return documents
  return documents.filter((doc) => {
    const strings = stringsOf(doc)
    return conditions.every((values) => values.some((value) => strings.has(value)))
  })
}

export type SnapshotQuery = (query: string, params?: Record<string, unknown>) => unknown

const trees = new Map<string, ReturnType<typeof parse>>()
const TREES_KEPT = 1_000

/** GROQ over a snapshot with groq-js, synchronously, `->` followed by `_id`. @throws what groq-js throws */
export function snapshotQuery(documents: StoredDocument[]): SnapshotQuery {
  const byType = Map.groupBy(documents, (doc) => doc._type)
  const byId = new Map(documents.map((doc) => [doc._id, doc]))
  return (query, params = {}) => {
    let tree = trees.get(query)
    if (!tree) {
      if (trees.size >= TREES_KEPT) trees.clear()
      trees.set(query, (tree = parse(query)))
    }
    const types = scannedTypes(query, params)
    const scanned = types ? types.flatMap((type) => byType.get(type) ?? []) : documents
    const dataset = narrowScan(query, params, scanned)
    // `toJS`: a synchronous evaluation's `get()` still answers with a promise.
    return toJS(evaluateSync(tree, { dataset, params, dereference: ({ _ref }) => byId.get(_ref) ?? null }))
  }
}
