/**
 * The publish journal: every publish the webhook accepted, on disk before Sanity hears 202,
 * until a build that carried it has a final answer (it went live, or it failed on what it
 * holds: invalid content, a failed gate). Sanity does not send a delivery again once it was
 * answered 2xx, so a publisher stopped or killed during that build would otherwise lose it;
 * on start, whatever is accepted and not done is built again (Publisher.resume).
 *
 * One file, `<site dir>/publish-journal.ndjson`, one JSON line a record, appended and
 * fsync'd (and its folder, when the file is new):
 *   {"op":"accepted","id":"…","keyHash":"<SHA-256 of the idempotency key>","documentId":"…","type":"…","at":"<ISO>"}
 *   {"op":"done","ids":["…"],"outcome":"live"|"failed","at":"<ISO>"}
 * Accepted publishes' idempotency keys are remembered for a day (as the webhook's own
 * memory), across restarts: a delivery Sanity retries after a restart builds nothing more.
 * A key is kept as its digest (43 characters, whatever the header's length: it is not
 * signed) and a document id or type only up to MAX_FIELD_CHARS, so a record is at most
 * about 700 bytes (typically 170). The file is rewritten (a new file fsync'd, renamed over,
 * folder fsync'd) when it holds twice the records still needed: pending publishes and keys
 * younger than a day, at most `maxEntries` of them (the oldest done ones go first; then the
 * oldest pending ones, which the one build for the rest covers anyway). So it never holds
 * more than about 2 × `maxEntries` records.
 */
import { createHash, randomUUID } from 'node:crypto'
import * as fsPromises from 'node:fs/promises'
import path from 'node:path'

/** The file's name in the site folder. */
export const JOURNAL_FILE = 'publish-journal.ndjson'

/** How long an accepted delivery's idempotency key is remembered: a day, as webhook.ts's memory. */
export const KEY_TTL_MS = 24 * 60 * 60_000

/** Most publishes remembered (pending ones and keys still deduplicated). */
export const MAX_ENTRIES = 10_000

/**
 * Longest document id or type recorded (Sanity's ids are at most 128 characters): a longer
 * one names no document, and the publish is recorded without it (its build covers every
 * document all the same).
 */
export const MAX_FIELD_CHARS = 256

/** An idempotency key as the journal keeps it: its SHA-256, base64url (43 characters). */
export const keyDigest = (key: string): string => createHash('sha256').update(key).digest('base64url')

/** What the webhook accepted. */
export type Delivery = { documentId?: string; type?: string; idempotencyKey?: string }

/** One accepted publish: `id` is the journal's own (a delivery may come without a key). */
export type JournalEntry = {
  id: string
  /** The delivery's idempotency key's digest (`keyDigest`). */
  keyHash?: string
  documentId?: string
  type?: string
  /** When it was accepted, ISO 8601. */
  at: string
  /** Set once a build that carried it had its final answer. */
  outcome?: 'live' | 'failed'
}

/** The file system calls the journal makes: `node:fs/promises`, or a wrapper (tests inject faults). */
export type JournalFs = Pick<typeof fsPromises, 'open' | 'mkdir' | 'readFile' | 'rename'>

export type JournalOptions = {
  fs?: JournalFs
  /** Clock in ms (tests). */
  now?: () => number
  /** Default MAX_ENTRIES. */
  maxEntries?: number
  /** Called when something went wrong that did not lose a publish (a record skipped, a rewrite failed). */
  warn?: (message: string, detail?: Record<string, unknown>) => void
}

type AcceptedRecord = {
  op: 'accepted'
  id: string
  keyHash?: string
  documentId?: string
  type?: string
  at: string
}
type DoneRecord = { op: 'done'; ids: string[]; outcome: 'live' | 'failed'; at: string }

/** See the module comment. */
export class PublishJournal {
  readonly file: string
  readonly #fs: JournalFs
  readonly #now: () => number
  readonly #maxEntries: number
  readonly #warn: NonNullable<JournalOptions['warn']>
  /** Every publish still needed, oldest first. */
  #entries = new Map<string, JournalEntry>()
  #byKey = new Map<string, JournalEntry>()
  #lines = 0
  #linesAfterRewrite = 0
  #loaded: Promise<void> | null = null
  #skipped = 0
  /** Writes run one after the other, in the order asked. */
  #tail: Promise<unknown> = Promise.resolve()

  /**
   * @param dir the site folder (`SITE_DIR`), created on the first write when missing
   */
  constructor(dir: string, options: JournalOptions = {}) {
    this.file = path.join(dir, JOURNAL_FILE)
    this.#fs = options.fs ?? fsPromises
    this.#now = options.now ?? Date.now
    this.#maxEntries = options.maxEntries ?? MAX_ENTRIES
    this.#warn = options.warn ?? (() => {})
  }

  /**
   * Reads the file once (later calls wait for the same read). A line that is not a record
   * (a write cut short by a crash, a hand edit) is skipped and reported through `warn`.
   * @throws the file system's error when the file exists but cannot be read
   */
  load(): Promise<void> {
    this.#loaded ??= this.#serial(() => this.#read()).catch((error: Error) => {
      // Not kept: the next call reads again (a permission fixed, space freed).
      this.#loaded = null
      throw error
    })
    return this.#loaded
  }

  /**
   * How many lines of the file were not records when it was read (a write cut short by a
   * crash, a hand edit): those lines are kept in a copy beside it (`…damaged-<ms>`), and
   * the publisher builds once, as one of them may have been a pending publish.
   */
  get skippedLines(): number {
    return this.#skipped
  }

  /**
   * Records an accepted publish, on disk (fsync'd) when it resolves.
   * @returns the entry, or 'duplicate' when a publish with the same idempotency key was
   *   accepted less than a day ago (before a restart too)
   * @throws the file system's error (ENOSPC, EPERM, …) when it could not be written: the
   *   publish is then not accepted (the webhook answers 503, and Sanity retries)
   */
  async accept(delivery: Delivery): Promise<JournalEntry | 'duplicate'> {
    await this.load()
    return this.#serial(async () => {
      const keyHash = delivery.idempotencyKey ? keyDigest(delivery.idempotencyKey) : undefined
      const known = keyHash ? this.#byKey.get(keyHash) : undefined
      if (known && this.#now() - Date.parse(known.at) < KEY_TTL_MS) return 'duplicate'
      const { documentId, type } = delivery
      const record: AcceptedRecord = {
        op: 'accepted',
        id: randomUUID(),
        ...(keyHash ? { keyHash } : {}),
        ...(documentId && documentId.length <= MAX_FIELD_CHARS ? { documentId } : {}),
        ...(type && type.length <= MAX_FIELD_CHARS ? { type } : {}),
        at: new Date(this.#now()).toISOString(),
      }
      await this.#append([record])
      this.#apply(record)
      const entry = this.#entries.get(record.id)!
      await this.#rewriteIfLong()
      return entry
    })
  }

  /**
   * Publishes accepted and not yet done, oldest first. Empty before `load()`.
   */
  pending(): JournalEntry[] {
    return [...this.#entries.values()].filter((entry) => !entry.outcome)
  }

  /**
   * Marks publishes done: a build that carried them has its final answer.
   * @param ids entries' ids (unknown or already done ones are ignored)
   * @param outcome live, or failed on what the build holds
   * @throws the file system's error; the entries then stay pending (built again on the next start)
   */
  async done(ids: readonly string[], outcome: 'live' | 'failed'): Promise<void> {
    await this.load()
    return this.#serial(async () => {
      const open = ids.filter((id) => this.#entries.has(id) && !this.#entries.get(id)!.outcome)
      if (!open.length) return
      const record: DoneRecord = { op: 'done', ids: open, outcome, at: new Date(this.#now()).toISOString() }
      await this.#append([record])
      this.#apply(record)
      await this.#rewriteIfLong()
    })
  }

  #serial<T>(write: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(write)
    this.#tail = run.catch(() => undefined)
    return run
  }

  async #read(): Promise<void> {
    let text: string
    try {
      text = await this.#fs.readFile(this.file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
      throw error
    }
    const skipped: number[] = []
    text.split('\n').forEach((line, index) => {
      if (!line.trim()) return
      this.#lines += 1
      let record: unknown = null
      try {
        record = JSON.parse(line)
      } catch {
        // counted below
      }
      if (!this.#apply(record)) skipped.push(index + 1)
    })
    this.#skipped = skipped.length
    this.#linesAfterRewrite = this.#lines
    if (skipped.length) {
      // The unreadable lines are kept, as they were, before the file is rewritten without them.
      const copy = `${this.file}.damaged-${this.#now()}`
      await this.#writeSynced(copy, text)
      this.#warn(
        `${this.file}: line ${skipped.join(', ')} not a journal record; skipped (the file as it was: ${copy})`,
      )
    }
    // A last line without its newline (a write cut short) would swallow the next record.
    const force = skipped.length > 0 || (text.length > 0 && !text.endsWith('\n'))
    await this.#rewriteIfLong(force)
  }

  /**
   * Applies one record to the entries.
   * @returns true, or false for anything that is not a record
   */
  #apply(record: unknown): boolean {
    if (!record || typeof record !== 'object') return false
    const value = record as Record<string, unknown>
    const text = (field: string) => (typeof value[field] === 'string' ? (value[field] as string) : undefined)
    const [id, at] = [text('id'), text('at')]
    if (value.op === 'accepted' && id && at && Number.isFinite(Date.parse(at))) {
      const entry: JournalEntry = { id, at }
      for (const field of ['keyHash', 'documentId', 'type'] as const) {
        const given = text(field)
        if (given && given.length <= MAX_FIELD_CHARS) entry[field] = given
      }
      // A record written before keys were kept as digests.
      const key = text('key')
      if (key && !entry.keyHash) entry.keyHash = keyDigest(key)
      this.#entries.set(id, entry)
      if (entry.keyHash) this.#byKey.set(entry.keyHash, entry)
      return true
    }
    const outcome = value.outcome
    if (value.op === 'done' && Array.isArray(value.ids) && (outcome === 'live' || outcome === 'failed')) {
      for (const done of value.ids) {
        const entry = this.#entries.get(String(done))
        if (entry) entry.outcome = outcome
      }
      return true
    }
    return false
  }

  /** Drops done entries whose key is past a day, then the oldest beyond `maxEntries`. */
  #forget(): void {
    const now = this.#now()
    const drop = (entry: JournalEntry) => {
      this.#entries.delete(entry.id)
      if (entry.keyHash && this.#byKey.get(entry.keyHash) === entry) this.#byKey.delete(entry.keyHash)
    }
    for (const entry of [...this.#entries.values()])
      if (entry.outcome && (!entry.keyHash || now - Date.parse(entry.at) >= KEY_TTL_MS)) drop(entry)
    const excess = this.#entries.size - this.#maxEntries
    if (excess <= 0) return
    const all = [...this.#entries.values()]
    const oldest = [...all.filter((entry) => entry.outcome), ...all.filter((entry) => !entry.outcome)]
    for (const entry of oldest.slice(0, excess)) drop(entry)
  }

  /** Appends records and fsyncs; a new file's folder is fsync'd too, so the file's name survives a crash. */
  async #append(records: readonly (AcceptedRecord | DoneRecord)[]): Promise<void> {
    const dir = path.dirname(this.file)
    const created = await this.#fs.mkdir(dir, { recursive: true })
    const handle = await this.#fs.open(this.file, 'a')
    let size: number | null = null
    try {
      size = (await handle.stat()).size
      await handle.appendFile(records.map((record) => JSON.stringify(record) + '\n').join(''), 'utf8')
      await handle.sync()
      if (size === 0) await this.#syncFolders(created, dir)
    } catch (error) {
      // Not surely on disk, so not accepted: taken back (as far as the disk lets), so that
      // the delivery Sanity sends again is its only record.
      if (size !== null) await handle.truncate(size).catch(() => {})
      throw error
    } finally {
      await handle.close()
    }
    this.#lines += records.length
  }

  /**
   * Fsyncs `dir` and, when `mkdir` created folders (`created` the first of them), each
   * created folder's parent: each new name is then on disk.
   */
  async #syncFolders(created: string | undefined, dir: string): Promise<void> {
    const folders = [dir]
    for (let folder = dir; created && folder !== path.dirname(folder); folder = path.dirname(folder)) {
      folders.push(path.dirname(folder))
      if (folder === created) break
    }
    for (const folder of folders) {
      const handle = await this.#fs.open(folder, 'r')
      try {
        await handle.sync()
      } finally {
        await handle.close()
      }
    }
  }

  /** Writes a whole file and fsyncs it. */
  async #writeSynced(file: string, text: string): Promise<void> {
    const handle = await this.#fs.open(file, 'w')
    try {
      await handle.writeFile(text, 'utf8')
      await handle.sync()
    } finally {
      await handle.close()
    }
  }

  /**
   * Rewrites the file with only the records still needed when it holds twice as many
   * lines as the last rewrite left (and at least 1,000), or when `force`d. A failed
   * rewrite keeps the old file, which still holds everything, and is reported through `warn`.
   */
  async #rewriteIfLong(force = false): Promise<void> {
    if (!force && this.#lines < Math.max(1000, 2 * this.#linesAfterRewrite)) return
    this.#forget()
    const kept = [...this.#entries.values()]
    const records: (AcceptedRecord | DoneRecord)[] = kept.map((entry) => ({
      op: 'accepted',
      id: entry.id,
      ...(entry.keyHash ? { keyHash: entry.keyHash } : {}),
      ...(entry.documentId ? { documentId: entry.documentId } : {}),
      ...(entry.type ? { type: entry.type } : {}),
      at: entry.at,
    }))
    const at = new Date(this.#now()).toISOString()
    for (const outcome of ['live', 'failed'] as const) {
      const ids = kept.filter((entry) => entry.outcome === outcome).map((entry) => entry.id)
      if (ids.length) records.push({ op: 'done', ids, outcome, at })
    }
    const temporary = `${this.file}.${process.pid}.tmp`
    try {
      await this.#writeSynced(temporary, records.map((record) => JSON.stringify(record) + '\n').join(''))
      await this.#fs.rename(temporary, this.file)
      await this.#syncFolders(undefined, path.dirname(this.file))
      this.#lines = this.#linesAfterRewrite = records.length
    } catch (error) {
      // The old file still holds every record; try again after as many lines more.
      this.#linesAfterRewrite = this.#lines
      this.#warn(`${this.file} could not be rewritten shorter: ${(error as Error).message}`)
    }
  }
}
