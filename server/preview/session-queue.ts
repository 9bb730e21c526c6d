/**
 * The order preview renders wait in, as p-queue's `queueClass`: one line per editor's session, served
 * in turn, so a session asking for forty pages waits behind its own while another editor's is next.
 */
import type { QueueAddOptions } from 'p-queue'

type Run = () => Promise<unknown>

/** What `PQueue.add` takes with this queue: the session a run is for (default: one shared line). */
export type SessionQueueOptions = QueueAddOptions & { session?: string }

export class SessionQueue {
  /** Each session's waiting runs, oldest first; the Map's order is the order of turns. */
  #lines = new Map<string, { run: Run; id?: string }[]>()
  #size = 0

  /** Runs waiting, all sessions together. */
  get size(): number {
    return this.#size
  }

  enqueue(run: Run, options: Partial<SessionQueueOptions> = {}): void {
    const session = options.session ?? ''
    const line = this.#lines.get(session)
    if (line) line.push({ run, id: options.id })
    else this.#lines.set(session, [{ run, id: options.id }])
    this.#size += 1
  }

  /** The oldest run of the session whose turn it is; that session then goes to the back. */
  dequeue(): Run | undefined {
    const next = this.#lines.entries().next()
    if (next.done) return undefined
    const [session, line] = next.value
    const { run } = line.shift()!
    this.#lines.delete(session)
    if (line.length > 0) this.#lines.set(session, line)
    this.#size -= 1
    return run
  }

  /** Takes out a waiting run by its id (p-queue calls it when a run's signal aborts). */
  remove(id: string): void {
    for (const [session, line] of this.#lines) {
      const index = line.findIndex((entry) => entry.id === id)
      if (index < 0) continue
      line.splice(index, 1)
      if (line.length === 0) this.#lines.delete(session)
      this.#size -= 1
      return
    }
  }

  /** Every waiting run: this queue has no priorities (p-queue's `sizeBy`). */
  filter(): Run[] {
    return [...this.#lines.values()].flat().map((entry) => entry.run)
  }

  /** @throws Error always: sessions take turns, and no run goes before another by priority */
  setPriority(): void {
    throw new Error('SessionQueue: runs have no priority; sessions take turns')
  }
}
