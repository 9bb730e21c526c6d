/** Which pages a publish renders again, from the reads the last build recorded (lib/content/reads.ts), and the map it leaves for the next. */
import { readFileSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { resultHash, touches, type ReadRecord } from './reads.ts'
import type { RuleRead } from './schema-rules.ts'
import { runQuery, type ContentSource, type StoredDocument } from './source.ts'

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

/** The plan: render everything (and why), or take these pages (route -> units) from the live build. */
export type RenderPlan =
  | { kind: 'full'; reason: string }
  | { kind: 'partial'; reuse: Record<string, string[]>; changed: string[]; rerun: number; differ: number }

const readKey = (read: Read) => JSON.stringify([read.query, read.params])
const byKey = (a: Read, b: Read) => readKey(a).localeCompare(readKey(b))
/** A record's entries by key, in the order `Array.prototype.sort` gives keys. */
const sortedEntries = <T>(record: Record<string, T>) =>
  Object.keys(record)
    .sort()
    .map((key) => [key, record[key]!] as const)

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
  const changed = changedDocuments(previous, documents)
  // A page and its share card make the same read: one verdict each.
  const verdicts = new Map<string, boolean>()
  const differs = async (read: Read): Promise<boolean> => {
    if (!touches(read, changed)) return false
    const key = readKey(read)
    if (!verdicts.has(key))
      verdicts.set(key, resultHash(await runQuery(read.query, read.params, snapshot)) !== read.hash)
    return verdicts.get(key)!
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
  return { kind: 'partial', reuse, changed: [...changed.ids].sort(), rerun: verdicts.size, differ }
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
  const add = (route: string, unit: string, read: Read) =>
    ((pages[route] ??= {})[unit] ??= new Map()).set(readKey(read), read)
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
  const sortedPages = sortedEntries(pages).map(([route, units]) => [
    route,
    Object.fromEntries(sortedEntries(units).map(([unit, reads]) => [unit, [...reads.values()].sort(byKey)])),
  ])
  return {
    format: FORMAT,
    compileKey,
    documents: documentHashes(documents),
    ruleReads,
    shared: [...shared.values()].sort(byKey),
    pages: Object.fromEntries(sortedPages),
  }
}

let loadedPlan: { file: string; reuse: Map<string, Set<string>> } | undefined

/**
 * The units (values of the route's parameter) a dynamic route renders: all of them, but those the
 * build's plan (the file REUSED_PAGES names, `{ reuse }`) takes from the live build.
 * @throws Error when REUSED_PAGES names a file that is not a plan
 */
export function pagesToRender(route: string, units: string[], file = process.env.REUSED_PAGES): string[] {
  if (!file) return units
  if (loadedPlan?.file !== file) {
    const plan = JSON.parse(readFileSync(file, 'utf8')) as { reuse?: Record<string, string[]> }
    if (!plan.reuse || typeof plan.reuse !== 'object')
      throw new Error(`${file} is not a plan of reused pages`)
    loadedPlan = {
      file,
      reuse: new Map(Object.entries(plan.reuse).map(([name, units]) => [name, new Set(units)])),
    }
  }
  const reused = loadedPlan.reuse.get(route)
  return reused ? units.filter((unit) => !reused.has(unit)) : units
}
