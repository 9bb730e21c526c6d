/** Each publish the webhook accepted, on disk before Sanity hears 202 until its build's final answer (docs/publishing.md). */
import { createHash, randomUUID } from 'node:crypto'
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises'
import path from 'node:path'
import PQueue from 'p-queue'
import writeFileAtomic from 'write-file-atomic'

/** The file's name in the site folder: a JSON array of JournalEntry, one a line. */
export const JOURNAL_FILE = 'publish-journal.json'
/** The append-only journal of earlier versions: replaced by one pending publish (one build covers it). */
const OLD_JOURNAL_FILE = 'publish-journal.ndjson'
/** How long an accepted delivery's idempotency key is remembered: a day, as webhook.ts's memory. */
export const KEY_TTL_MS = 24 * 60 * 60_000
/** Most publishes remembered (pending ones and keys still deduplicated). */
export const MAX_ENTRIES = 10_000
/** Longest document id or type recorded (Sanity's are at most 128 characters); a longer one is left out. */
export const MAX_FIELD_CHARS = 256

/** An idempotency key as the journal keeps it: its SHA-256, base64url (43 characters). */
export const keyDigest = (key: string): string => createHash('sha256').update(key).digest('base64url')

export type Delivery = { documentId?: string; type?: string; idempotencyKey?: string }

/** One accepted publish: `keyHash` is its idempotency key's keyDigest, `outcome` its build's answer. */
export type JournalEntry = Omit<Delivery, 'idempotencyKey'> & {
  id: string
  keyHash?: string
  at: string
  outcome?: 'live' | 'failed'
}

/** Writes a file whole, on disk (its folder fsync'd too) when it resolves; on error the file is as it was. */
export async function writeAtomic(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true })
  await writeFileAtomic(file, text)
  // write-file-atomic syncs the file, not the folder that holds its new name.
  const folder = await open(path.dirname(file), 'r')
  await folder.sync().finally(() => folder.close())
}

/** `write`, `read` and `now` are replaced in tests; `warn` is told of a damaged file set aside. */
export type JournalOptions = {
  write?: typeof writeAtomic
  read?: (file: string) => Promise<string>
  now?: () => number
  maxEntries?: number
  warn?: (message: string, detail?: Record<string, unknown>) => void
}

export class PublishJournal {
  readonly file: string
  readonly #write: typeof writeAtomic
  readonly #read: (file: string) => Promise<string>
  readonly #now: () => number
  readonly #options: JournalOptions
  /** Every publish still needed, oldest first: what the file holds. */
  #entries: JournalEntry[] = []
  #loaded: Promise<void> | null = null
  /** Reads and writes, one at a time. */
  #serial = new PQueue({ concurrency: 1 })

  /** @param dir the site folder (`SITE_DIR`), created on the first write when missing */
  constructor(dir: string, options: JournalOptions = {}) {
    this.file = path.join(dir, JOURNAL_FILE)
    this.#write = options.write ?? writeAtomic
    this.#read = options.read ?? ((file) => readFile(file, 'utf8'))
    this.#now = options.now ?? Date.now
    this.#options = options
  }

  /**
   * Reads the file once. One that is not a journal is renamed aside (`…damaged-<ms>`), told to `warn`,
   * and replaced by one pending publish without a document: its build covers whatever the file held.
   * @throws the file system's error when the file cannot be read (the next call reads again)
   */
  load(): Promise<void> {
    this.#loaded ??= this.#serial
      .add(() => this.#readFile())
      .catch((error: Error) => {
        this.#loaded = null
        throw error
      })
    return this.#loaded
  }

  /**
   * Records an accepted publish, on disk when it resolves; 'duplicate' when its key came less than a day ago.
   * @throws the file system's error (ENOSPC, EPERM, …): nothing was accepted (the webhook answers 503)
   */
  async accept(delivery: Delivery): Promise<JournalEntry | 'duplicate'> {
    await this.load()
    return this.#serial.add(async () => {
      const keyHash = delivery.idempotencyKey ? keyDigest(delivery.idempotencyKey) : undefined
      const now = this.#now()
      if (keyHash && this.#entries.some((entry) => entry.keyHash === keyHash && !keyExpired(entry, now)))
        return 'duplicate'
      const entry = toEntry({ ...delivery, id: randomUUID(), keyHash, at: new Date(now).toISOString() })!
      await this.#save([...this.#entries, entry])
      return entry
    })
  }

  /** Publishes accepted and not yet done, oldest first. Empty before `load()`. */
  pending(): JournalEntry[] {
    return this.#entries.filter((entry) => !entry.outcome)
  }

  /** Marks publishes done (their build's final answer); on a write error they stay pending (built again on start). */
  async done(ids: readonly string[], outcome: 'live' | 'failed'): Promise<void> {
    await this.load()
    return this.#serial.add(async () => {
      const carried = (entry: JournalEntry) => !entry.outcome && ids.includes(entry.id)
      if (this.#entries.some(carried))
        await this.#save(this.#entries.map((entry) => (carried(entry) ? { ...entry, outcome } : entry)))
    })
  }

  /** Writes and holds `entries`, less done ones past their key's day and the oldest over `maxEntries`. */
  async #save(entries: JournalEntry[]): Promise<void> {
    const now = this.#now()
    let kept = entries.filter((entry) => !entry.outcome || (entry.keyHash && !keyExpired(entry, now)))
    const excess = kept.length - (this.#options.maxEntries ?? MAX_ENTRIES)
    if (excess > 0) {
      const oldest = [...kept.filter((entry) => entry.outcome), ...kept.filter((entry) => !entry.outcome)]
      const dropped = new Set(oldest.slice(0, excess))
      kept = kept.filter((entry) => !dropped.has(entry))
    }
    await this.#write(this.file, `[\n${kept.map((entry) => JSON.stringify(entry)).join(',\n')}\n]\n`)
    this.#entries = kept
  }

  async #readFile(): Promise<void> {
    const text = await this.#read(this.file).catch(ifMissing)
    const entries = text === undefined ? [] : parseEntries(text)
    const old = path.join(path.dirname(this.file), OLD_JOURNAL_FILE)
    const oldText = await this.#read(old).catch(ifMissing)
    if (entries && oldText === undefined) {
      this.#entries = entries
      return
    }
    if (!entries) {
      const aside = `${this.file}.damaged-${this.#now()}`
      await rename(this.file, aside)
      this.#options.warn?.(`${this.file} is not a publish journal; set aside as ${aside}, and one build runs`)
    }
    // What it held is unknown: one pending publish, whose build covers it, written before the old file goes.
    await this.#save([...(entries ?? []), { id: randomUUID(), at: new Date(this.#now()).toISOString() }])
    if (oldText !== undefined) await rm(old, { force: true })
  }
}

const keyExpired = (entry: JournalEntry, now: number) => now - Date.parse(entry.at) >= KEY_TTL_MS

const ifMissing = (error: NodeJS.ErrnoException): undefined => {
  if (error.code === 'ENOENT') return undefined
  throw error
}

/** A journal entry from anything (fields over MAX_FIELD_CHARS left out), or null when it is none. */
function toEntry(value: Record<string, unknown>): JournalEntry | null {
  const text = (field: string) =>
    typeof value[field] === 'string' && value[field].length <= MAX_FIELD_CHARS ? value[field] : undefined
  const [id, at, outcome] = [text('id'), text('at'), value.outcome]
  if (!id || !at || !Number.isFinite(Date.parse(at))) return null
  if (outcome !== undefined && outcome !== 'live' && outcome !== 'failed') return null
  const entry: JournalEntry = { id, at }
  for (const field of ['keyHash', 'documentId', 'type'] as const) if (text(field)) entry[field] = text(field)
  if (outcome) entry.outcome = outcome
  return entry
}

/** The journal's entries, or null when the text is not a journal. */
function parseEntries(text: string): JournalEntry[] | null {
  try {
    const values: unknown = JSON.parse(text)
    const entries = Array.isArray(values)
      ? values.map((value) => (value instanceof Object ? toEntry(value) : null))
      : [null]
    return entries.every((entry) => entry !== null) ? entries : null
  } catch {
    return null
  }
}
