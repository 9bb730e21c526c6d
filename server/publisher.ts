/**
 * The publisher: turns "content was published" into a new live site.
 * Each build runs the build command (into the export folder), is moved into
 * the build store under its own id and goes live by an atomic swap; builds are
 * coalesced by a queue. A failed build (invalid content, a crash, a killed
 * process) changes nothing that visitors see and is recorded as `lastError`.
 */
import { rm } from 'node:fs/promises'
import type { Logger } from 'pino'
import { runBuildCommand, type BuildCommand } from './builder.ts'
import type { BuildStore } from './builds.ts'
import { readBuildInfo } from '../lib/build-output.ts'
import { CoalescingQueue } from './queue.ts'

/** What `/healthz` reports about publishing. */
export type PublisherStatus = {
  building: boolean
  queued: boolean
  builds: { succeeded: number; failed: number }
  lastBuild: { id: string; durationMs: number; finishedAt: string } | null
  lastError: { message: string; at: string } | null
}

export type PublisherOptions = {
  store: BuildStore
  /** The build command; it must leave a complete export in `exportDir`. */
  command: BuildCommand
  /** Where the command writes the export (e.g. `<repo>/out`). */
  exportDir: string
  log: Logger
}

/** See the module comment. */
export class Publisher {
  #options: PublisherOptions
  #queue: CoalescingQueue
  #shutdown = new AbortController()
  #status: PublisherStatus = {
    building: false,
    queued: false,
    builds: { succeeded: 0, failed: 0 },
    lastBuild: null,
    lastError: null,
  }

  constructor(options: PublisherOptions) {
    this.#options = options
    this.#queue = new CoalescingQueue(() => this.#build())
  }

  /**
   * Asks for a rebuild (e.g. after a verified webhook). Returns at once.
   * @param reason for the log, e.g. the webhook's document id
   * @returns 'started' or 'queued' (coalesced with other requests)
   */
  request(reason: Record<string, unknown> = {}): 'started' | 'queued' {
    const result = this.#queue.request()
    this.#options.log.info({ event: 'build.requested', result, ...reason }, `build ${result}`)
    return result
  }

  /** Current state, for `/healthz`. */
  status(): PublisherStatus {
    return { ...this.#status, building: this.#queue.running, queued: this.#queue.pending }
  }

  /** Resolves when no build is running or queued. */
  idle(): Promise<void> {
    return this.#queue.idle()
  }

  /** Kills a running build (its process group); the live build stays. For shutdown. */
  stop(): void {
    this.#shutdown.abort()
  }

  async #build(): Promise<void> {
    const { store, command, exportDir, log } = this.#options
    log.info({ event: 'build.start' }, 'build started')
    // A previous failed or killed build may have left a partial export; never adopt it.
    await rm(exportDir, { recursive: true, force: true })
    const outcome = await runBuildCommand({ ...command, signal: this.#shutdown.signal })
    try {
      if (!outcome.ok) throw new Error(outcome.error)
      if (!(await readBuildInfo(exportDir)))
        throw new Error(`the build command succeeded but left no complete export in ${exportDir}`)
      const info = await store.add(exportDir, 'move')
      const previous = await store.liveId()
      await store.setLive(info.id)
      const pruned = await store.prune()
      this.#status.builds.succeeded += 1
      this.#status.lastBuild = {
        id: info.id,
        durationMs: outcome.durationMs,
        finishedAt: new Date().toISOString(),
      }
      log.info({ event: 'build.done', id: info.id, durationMs: outcome.durationMs }, 'build succeeded')
      log.info({ event: 'swap', id: info.id, previous, pruned }, `build ${info.id} is live`)
    } catch (error) {
      const message = (error as Error).message
      this.#status.builds.failed += 1
      this.#status.lastError = { message, at: new Date().toISOString() }
      log.error(
        { event: 'build.failed', error: message, durationMs: outcome.durationMs },
        'build failed; the live site is unchanged',
      )
    }
  }
}
