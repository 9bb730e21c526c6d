/**
 * Which pages a build renders, and the dependency map it leaves for the next one.
 *
 * Every build writes `.content-reads.json` beside its pages: the reads its pages made
 * (lib/content/reads.ts), each document's hash, and the compile it rendered with. The
 * next build, given the live build's folder (PREVIOUS_BUILD_DIR), compares the content
 * snapshot with those hashes, runs again only the recorded queries a changed document
 * could touch (its id was in the result, or its type is one the query scans), and keeps
 * every page of a dynamic route whose queries all give the same result: those pages are
 * taken from the live build byte for byte (scripts/build/reuse-pages.ts). Pages every build
 * renders (the home page, the lists, the sitemap) are rendered anyway, and so is one page of
 * each dynamic route (Next's export needs at least one).
 * Anything in doubt renders everything: no map, another compile or map format, a changed
 * result of a read that every page shares (site settings), a route with other than one
 * parameter.
 */
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import type { ReadRecord } from '../../lib/content/reads.ts'
import { resultHash, touches } from '../../lib/content/reads.ts'
import type { RuleRead } from '../../lib/content/schema-rules.ts'
import { runQuery, type ContentSource, type StoredDocument } from '../../lib/content/source.ts'

/** The dependency map's file in a build. A dot file, never served. */
export const CONTENT_READS_FILE = '.content-reads.json'

/** Bumped whenever the map's shape or meaning changes: an older map renders everything. */
const FORMAT = 2

/** A read kept in the map: the record without its scope (the map files it by scope). */
type Read = Omit<ReadRecord, 'scope'>

/** What `.content-reads.json` holds. */
export type DependencyMap = {
  format: number
  /** The compile the pages were rendered with (scripts/build/next-steps.ts compileKey). */
  compileKey: string
  /** Every document of the snapshot: `_id` -> [type, sha1 of the document]. */
  documents: Record<string, [string, string]>
  /**
   * The queries each document's schema rules ran (lib/content/schema-rules.ts), so a
   * change validates again only the documents whose rules read it (scripts/build/content-step.ts).
   */
  ruleReads: Record<string, RuleRead[]>
  /** Reads every page shares (no scope: the layout's). */
  shared: Read[]
  /** Each dynamic route's pages (by the value of its parameter) and their own reads. */
  pages: Record<string, Record<string, Read[]>>
}

/** The plan: render everything (and why), or take these pages from the live build. */
export type RenderPlan =
  | { kind: 'full'; reason: string }
  | {
      kind: 'partial'
      /** Route pattern -> the pages taken from the live build. */
      reuse: Record<string, string[]>
      /** Documents that changed since the live build (added, edited, removed). */
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

/**
 * The documents that differ between a build's snapshot and another snapshot: added,
 * edited or removed, by `_id`, and their types (before and after).
 */
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

/**
 * Reads a build's dependency map.
 * @returns null when the build has none, or one of another format
 */
export async function readDependencyMap(buildDir: string): Promise<DependencyMap | null> {
  try {
    const map = JSON.parse(await readFile(path.join(buildDir, CONTENT_READS_FILE), 'utf8')) as DependencyMap
    return map.format === FORMAT ? map : null
  } catch {
    return null
  }
}

/**
 * Decides which pages to render (see the module comment).
 * @param previous the live build's map (null: none)
 * @param documents the snapshot this build renders
 * @param snapshot the snapshot as a content source, to run reads again
 * @param compileKey this build's compile
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
  /** Each distinct read's verdict (a page and its share card make the same read). */
  const verdicts = new Map<string, boolean>()
  /** Whether a read gives another result now; run again only when a change could touch it. */
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
    // Next refuses a static export whose route generates no page: one of each route's pages
    // is always rendered again (its bytes come out the same).
    reuse[route].shift()
  }
  const differ = [...verdicts.values()].filter(Boolean).length
  return { kind: 'partial', reuse, changed: [...changedIds].sort(), rerun: verdicts.size, differ }
}

/**
 * Builds this build's map: the reads recorded while it rendered (`CONTENT_READS_DIR`, one
 * NDJSON file per process), and the live build's for the pages taken from it.
 * @param recordedDir where the render's processes wrote their reads
 * @param previous the live build's map, when pages were reused from it
 * @param reused route -> the pages taken from the live build
 * @param ruleReads the queries each document's schema rules ran (the content step's)
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
      // 'always' and 'paths': pages every build renders, and page lists; no page's own.
    }
  if (previous) {
    // Every shared read was unchanged (or the build rendered everything): the live build's hold.
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
