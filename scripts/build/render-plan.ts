/** Which pages a build renders, and the dependency map it leaves for the next (docs/architecture.md, "Data flow"). */
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import type { ReadRecord } from '../../lib/content/reads.ts'
import { resultHash, touches } from '../../lib/content/reads.ts'
import type { RuleRead } from '../../lib/content/schema-rules.ts'
import { runQuery, type ContentSource, type StoredDocument } from '../../lib/content/source.ts'

/** The dependency map's file in a build: a dot file, never served. */
export const CONTENT_READS_FILE = '.content-reads.json'

/** Bumped whenever the map's shape or meaning changes: an older map renders everything. */
const FORMAT = 2

type Read = Omit<ReadRecord, 'scope'>

/** What `.content-reads.json` holds. */
export type DependencyMap = {
  format: number
  compileKey: string
  /** Every document of the snapshot: `_id` -> [type, sha1 of the document]. */
  documents: Record<string, [string, string]>
  /** The queries each document's schema rules ran: a change validates again only their readers. */
  ruleReads: Record<string, RuleRead[]>
  shared: Read[]
  /** Each dynamic route's pages (by the value of its parameter) and their own reads. */
  pages: Record<string, Record<string, Read[]>>
}

/** The plan: render everything (and why), or take these pages from the live build. */
export type RenderPlan =
  | { kind: 'full'; reason: string }
  | {
      kind: 'partial'
      reuse: Record<string, string[]>
      changed: string[]
      /** Distinct recorded reads run again, and how many of them gave another result. */
      rerun: number
      differ: number
    }

const readKey = (read: Read) => JSON.stringify([read.query, read.params])
const byKey = (a: Read, b: Read) => readKey(a).localeCompare(readKey(b))

/** `_id` -> [type, hash] of every document of a snapshot. */
export function documentHashes(documents: StoredDocument[]): Record<string, [string, string]> {
  return Object.fromEntries(
    documents
      .map((doc): [string, [string, string]] => [doc._id, [doc._type, resultHash(doc)]])
      .sort(([a], [b]) => a.localeCompare(b)),
  )
}

/** The ids of documents added, edited or removed since a build's snapshot, and their types before and after. */
export function changedDocuments(
  previous: Pick<DependencyMap, 'documents'>,
  documents: StoredDocument[],
): { ids: Set<string>; types: Set<string> } {
  const now = documentHashes(documents)
  const ids = new Set<string>()
  const types = new Set<string>()
  for (const id of new Set([...Object.keys(now), ...Object.keys(previous.documents)])) {
    const [before, after] = [previous.documents[id], now[id]]
    if (before?.[1] === after?.[1]) continue
    ids.add(id)
    for (const entry of [before, after]) if (entry) types.add(entry[0])
  }
  return { ids, types }
}

/** A build's dependency map, or null when it has none or one of another format. */
export async function readDependencyMap(buildDir: string): Promise<DependencyMap | null> {
  try {
    const map = JSON.parse(await readFile(path.join(buildDir, CONTENT_READS_FILE), 'utf8')) as DependencyMap
    return map.format === FORMAT ? map : null
  } catch {
    return null
  }
}

/**
 * Which pages to render: everything when in doubt (no map, another compile, a changed shared
 * read, a route with other than one parameter), else all but the dynamic pages whose reads
 * all give the same result now.
 */
export async function planRender(
  previous: DependencyMap | null,
  documents: StoredDocument[],
  snapshot: ContentSource,
  compileKey: string,
): Promise<RenderPlan> {
  if (!previous) return { kind: 'full', reason: 'the live build has no dependency map' }
  if (previous.compileKey !== compileKey)
    return { kind: 'full', reason: 'the code or a build-time setting changed since the live build' }
  const { ids: changedIds, types: changedTypes } = changedDocuments(previous, documents)
  // A page and its share card make the same read: one verdict each.
  const verdicts = new Map<string, boolean>()
  const differs = async (read: Read): Promise<boolean> => {
    if (!touches(read, { ids: changedIds, types: changedTypes })) return false
    const key = readKey(read)
    let changed = verdicts.get(key)
    if (changed === undefined) {
      changed = resultHash(await runQuery(read.query, read.params, snapshot)) !== read.hash
      verdicts.set(key, changed)
    }
    return changed
  }
  for (const read of previous.shared)
    if (await differs(read))
      return { kind: 'full', reason: `a read every page shares changed: ${read.query.slice(0, 60)}` }
  const reuse: Record<string, string[]> = {}
  for (const [route, pages] of Object.entries(previous.pages)) {
    if ((route.match(/\[/g) ?? []).length !== 1)
      return { kind: 'full', reason: `route ${route} has other than one parameter` }
    reuse[route] = []
    for (const [unit, reads] of Object.entries(pages)) {
      let clean = true
      for (const read of reads) if (await differs(read)) clean = false
      if (clean) reuse[route].push(unit)
    }
    // Next refuses a static export whose route generates no page.
    reuse[route].shift()
  }
  const differ = [...verdicts.values()].filter(Boolean).length
  return { kind: 'partial', reuse, changed: [...changedIds].sort(), rerun: verdicts.size, differ }
}

/**
 * This build's map: the reads its render recorded in `recordedDir` (NDJSON, one file per
 * process), plus the live build's reads for the pages reused from it.
 */
export async function dependencyMap(
  recordedDir: string,
  documents: StoredDocument[],
  compileKey: string,
  previous: DependencyMap | null,
  reused: Record<string, string[]>,
  ruleReads: Record<string, RuleRead[]>,
): Promise<DependencyMap> {
  const shared = new Map<string, Read>()
  const pages: Record<string, Record<string, Map<string, Read>>> = {}
  const add = (route: string, unit: string, read: Read) => {
    const unitReads = ((pages[route] ??= {})[unit] ??= new Map())
    unitReads.set(readKey(read), read)
  }
  const files = await readdir(recordedDir).catch(() => [] as string[])
  for (const file of files.filter((name) => name.endsWith('.ndjson')))
    for (const line of (await readFile(path.join(recordedDir, file), 'utf8')).split('\n')) {
      if (!line) continue
      const { scope, ...read } = JSON.parse(line) as ReadRecord
      if (scope === null) shared.set(readKey(read), read)
      else if (typeof scope === 'object') add(scope.route, scope.unit, read)
    }
  if (previous) {
    for (const read of previous.shared) if (!shared.has(readKey(read))) shared.set(readKey(read), read)
    for (const [route, units] of Object.entries(reused))
      for (const unit of units) for (const read of previous.pages[route]?.[unit] ?? []) add(route, unit, read)
  }
  const sortedPages = Object.fromEntries(
    Object.keys(pages)
      .sort()
      .map((route) => [
        route,
        Object.fromEntries(
          Object.keys(pages[route]!)
            .sort()
            .map((unit) => [unit, [...pages[route]![unit]!.values()].sort(byKey)]),
        ),
      ]),
  )
  return {
    format: FORMAT,
    compileKey,
    documents: documentHashes(documents),
    ruleReads,
    shared: [...shared.values()].sort(byKey),
    pages: sortedPages,
  }
}
