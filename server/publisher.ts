/**
 * The publisher: turns "content was published" into a new live site.
 * Each build runs the build command (into the export folder), passes the publish
 * gate (gate.ts: the changed pages' links and HTML), is moved into the build store
 * under its own id and goes live by an atomic swap; builds are coalesced by a queue.
 * A failed build (invalid content, a failed gate, a crash, a killed process) changes
 * nothing that visitors see and is recorded as `lastError`, and as the state of every
 * document whose publish it carried (`documentStates`, document-publish-states.ts: what
 * the Studio shows).
 */
import { rm } from 'node:fs/promises'
import type { Logger } from 'pino'
import { runBuildCommand, type BuildCommand } from './build-command.ts'
import type { BuildStore } from './build-store.ts'
import { DocumentPublishStates } from './document-publish-states.ts'
import { CONTENT_CHECKED_LINE, readBuildInfo, readBuildPhases } from '../lib/build-output.ts'
import { isPublishedId } from '../lib/content/source.ts'
import { checkCandidate, type GateOptions } from './gate.ts'
import { CoalescingQueue } from './queue.ts'

/**
 * The last build that went live: its id, how long the build command ran, when it went
 * live, and each step's time in ms (the build's own, from its `.build-phases.json`,
 * then the publisher's `gate` and `swap`), for `/healthz` and the bench.
 */
type BuildRecord = { id: string; durationMs: number; finishedAt: string; phases: Record<string, number> }
/** The last build of a kind that failed, and why. */
type FailureRecord = { message: string; at: string }

/** What `/healthz` reports about publishing. */
export type PublisherStatus = {
  building: boolean
  queued: boolean
  builds: { succeeded: number; failed: number }
  lastBuild: BuildRecord | null
  lastError: FailureRecord | null
}

/**
 * Document types that are Sanity's own bookkeeping, never shown on the site: the secrets
 * the Presentation tool and the Studio's badge make (`@sanity/preview-url-secret`). Their
 * webhooks start no build.
 */
export const NOT_CONTENT_TYPES: ReadonlySet<string> = new Set([
  'sanity.previewUrlSecret',
  'sanity.previewUrlShareAccess',
])

export type PublisherOptions = {
  store: BuildStore
  /** The build command; it must leave a complete export in `exportDir`. */
  command: BuildCommand
  /** Where the command writes the export (e.g. `<repo>/out`). */
  exportDir: string
  log: Logger
  /**
   * The publish gate's checks (default: links only); 'off' lets a build go live
   * unchecked (PUBLISH_GATE=off, for measuring what the gate costs).
   */
  gate?: GateOptions | 'off'
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
  /** Each document's last publish, for the Studio's badge (publish-status.ts). */
  readonly documentStates = new DocumentPublishStates()

  constructor(options: PublisherOptions) {
    this.#options = options
    this.#queue = new CoalescingQueue(() => this.#build())
  }

  /**
   * Asks for a rebuild (e.g. after a verified webhook). Returns at once. A draft or a
   * release version asks for nothing: editors' preview renders it on request
   * (server/preview-process.ts). Nor does a document of one of NOT_CONTENT_TYPES.
   * @param reason for the log, e.g. the webhook's document id and type
   * @returns 'started' or 'queued' (coalesced with other requests), or 'skipped'
   */
  request(
    reason: { documentId?: string; type?: string; [key: string]: unknown } = {},
  ): 'started' | 'queued' | 'skipped' {
    if (reason.type && NOT_CONTENT_TYPES.has(reason.type)) {
      this.#options.log.info({ event: 'build.skipped', ...reason }, 'not content: nothing to build')
      return 'skipped'
    }
    if (reason.documentId && !isPublishedId(reason.documentId)) {
      this.#options.log.info(
        { event: 'build.skipped', ...reason },
        'a draft or release version: the preview renders it on request, nothing to build',
      )
      return 'skipped'
    }
    if (reason.documentId) this.documentStates.requested(reason.documentId)
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

  /**
   * Runs the build command into the export folder and checks that it left a complete export.
   * @param warmUp starts the gate's HTML checker; called once the build is past its content
   *   check (CONTENT_CHECKED_LINE), so a build that fails within seconds starts no JVM
   * @returns how long the command ran, and the reason when it failed or left none
   */
  async #runBuildCommand(warmUp?: () => void): Promise<{ durationMs: number; error?: string }> {
    const { command, exportDir } = this.#options
    // A previous failed or killed build may have left a partial export; never adopt it.
    await rm(exportDir, { recursive: true, force: true })
    // The live build is the next build's history: old addresses it redirects, pages it may reuse.
    const previous = await this.#options.store.liveDir()
    let warmed = false
    const outcome = await runBuildCommand({
      ...command,
      env: { ...(command.env ?? process.env), PREVIOUS_BUILD_DIR: previous ?? '' },
      signal: this.#shutdown.signal,
      milestone: warmUp && {
        line: CONTENT_CHECKED_LINE,
        reached: () => {
          warmed = true
          warmUp()
        },
      },
    })
    if (!outcome.ok) return outcome
    if (warmUp && !warmed)
      this.#options.log.warn(
        { event: 'gate.cold', expected: CONTENT_CHECKED_LINE },
        `the build never printed "${CONTENT_CHECKED_LINE}": the HTML checker starts only now, at the gate`,
      )
    const built = await readBuildInfo(exportDir)
    if (!built)
      return { ...outcome, error: `the build command succeeded but left no complete export in ${exportDir}` }
    return outcome
  }

  async #build(): Promise<void> {
    const { store, exportDir, log } = this.#options
    // This build carries every publish requested before it started; later ones wait for the next.
    const carried = this.documentStates.startBuild()
    log.info({ event: 'build.start', documents: carried }, 'build started')
    const checks = this.#options.gate ?? { html: false }
    const { durationMs, error } = await this.#runBuildCommand(checks === 'off' ? undefined : checks.warmUp)
    try {
      if (error) throw new Error(error)
      const phases = await readBuildPhases(exportDir)
      if (checks !== 'off') {
        const gate = await checkCandidate(exportDir, await store.liveDir(), checks)
        log.info({ event: 'gate', pages: gate.pages, problems: gate.problems, ms: gate.ms }, 'publish gate')
        phases.gate = Math.round(gate.ms)
        if (gate.problems.length) throw new Error(gate.problems.join('\n'))
      }
      const { info, previous, swapMs } = await store.putLive(exportDir)
      phases.swap = swapMs
      this.#status.builds.succeeded += 1
      this.#status.lastBuild = { id: info.id, durationMs, finishedAt: new Date().toISOString(), phases }
      this.documentStates.wentLive(carried, info)
      log.info({ event: 'build.done', id: info.id, durationMs }, 'build succeeded')
      // Old builds are removed once the status says live: thousands of files at a large size.
      const pruned = await store.prune().catch((error: Error) => {
        log.warn({ event: 'prune.failed', error: error.message }, 'old builds not removed')
        return []
      })
      log.info({ event: 'swap', id: info.id, previous, pruned }, `build ${info.id} is live`)
    } catch (caught) {
      const message = (caught as Error).message
      this.#status.builds.failed += 1
      this.#status.lastError = { message, at: new Date().toISOString() }
      this.documentStates.failed(carried, this.#status.lastError.at, message)
      log.error(
        { event: 'build.failed', error: message, durationMs },
        'build failed; the live site is unchanged',
      )
    }
  }
}
