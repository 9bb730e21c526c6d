/** Coalesced builds, each through the publish gate into the build store and live by an atomic swap (docs/publishing.md). */
import { rm } from 'node:fs/promises'
import PQueue from 'p-queue'
import type { Logger } from 'pino'
import { messageOf, runBuildCommand, stepFailure, type BuildCommand } from './build-command.ts'
import type { BuildStore } from './build-store.ts'
import { DocumentPublishStates } from './document-publish-states.ts'
import { CONTENT_CHECKED_LINE, readBuildInfo, readBuildPhases } from '../../lib/build-output.ts'
import { isPublishedId } from '../../lib/content/source.ts'
import { checkCandidate, type GateOptions } from './gate.ts'
import type { Delivery, PublishJournal } from './publish-journal.ts'

type Failure = { message: string; at: string }
const failure = (message: string): Failure => ({ message, at: new Date().toISOString() })

/**
 * For `/healthz`: `builds.cancelled` counts builds the shutdown ended (no failure); `lastBuild.phases`
 * holds each step's ms (the build's `.build-phases.json`, then `gate` and `swap`); `lastCleanupError`
 * is the last removal of an export or old builds that failed (no publish's outcome).
 */
export type PublisherStatus = {
  building: boolean
  queued: boolean
  builds: { succeeded: number; failed: number; cancelled: number }
  lastBuild: { id: string; durationMs: number; finishedAt: string; phases: Record<string, number> } | null
  lastError: Failure | null
  lastCleanupError: Failure | null
}

/** Sanity's own bookkeeping (`@sanity/preview-url-secret`), never on the site: their webhooks build nothing. */
const NOT_CONTENT_TYPES = new Set(['sanity.previewUrlSecret', 'sanity.previewUrlShareAccess'])

export type PublisherOptions = {
  store: BuildStore
  /** It must leave a complete export in `exportDir`. */
  command: BuildCommand
  exportDir: string
  log: Logger
  /** Default: links only; 'off' puts builds live unchecked (PUBLISH_GATE=off, to measure the gate). */
  gate?: GateOptions | 'off'
  /** Without one, a stop loses a running build's publishes. */
  journal?: PublishJournal
}

export class Publisher {
  #options: PublisherOptions
  /** Builds, one at a time; requests during one add exactly one more. */
  #builds = new PQueue({ concurrency: 1 })
  #shutdown = new AbortController()
  #status: Omit<PublisherStatus, 'building' | 'queued'> = {
    builds: { succeeded: 0, failed: 0, cancelled: 0 },
    lastBuild: null,
    lastError: null,
    lastCleanupError: null,
  }
  /** For the Studio's badge (publish-status.ts). */
  readonly documentStates = new DocumentPublishStates()
  /** Builds and adoptions take turns: each reads the export folder, which a build first empties. */
  #turns = new PQueue({ concurrency: 1 })

  constructor(options: PublisherOptions) {
    this.#options = options
  }

  /** Why a delivery asks for no build: drafts and release versions render in the preview on request. */
  #skip({ type, documentId }: Delivery): string | null {
    if (type && NOT_CONTENT_TYPES.has(type)) return 'not content: nothing to build'
    if (documentId && !isPublishedId(documentId))
      return 'a draft or release version: the preview renders it on request, nothing to build'
    return null
  }

  /**
   * Asks for a rebuild; returns at once.
   * @param reason for the log, e.g. the webhook's document id and type
   * @returns 'started', 'queued' (coalesced with other requests) or 'skipped' (see #skip)
   */
  request(reason: Delivery & Record<string, unknown> = {}): 'started' | 'queued' | 'skipped' {
    const { log } = this.#options
    const skipped = this.#skip(reason)
    if (skipped) {
      log.info({ event: 'build.skipped', ...reason }, skipped)
      return 'skipped'
    }
    if (reason.documentId) this.documentStates.requested(reason.documentId)
    const result = this.#builds.pending ? 'queued' : 'started'
    if (!this.#builds.size)
      void this.#builds.add(() =>
        this.#turns
          .add(() => this.#build())
          .catch((error: unknown) =>
            log.error(
              { event: 'build.error', error: (error as Error | null)?.stack ?? messageOf(error) },
              'a build ended by an error its own handling did not catch',
            ),
          ),
      )
    log.info({ event: 'build.requested', result, ...reason }, `build ${result}`)
    return result
  }

  /**
   * A publish the webhook accepted: in the journal first, then requested.
   * @returns as `request`, or 'duplicate' when the journal already holds its idempotency key
   * @throws the journal's error when it could not be written: nothing was requested (no 2xx)
   */
  async accept(delivery: Delivery): Promise<'started' | 'queued' | 'skipped' | 'duplicate'> {
    const journal = this.#options.journal
    if (!this.#skip(delivery) && journal && (await journal.accept(delivery)) === 'duplicate')
      return 'duplicate'
    return this.request(delivery)
  }

  /**
   * On start: one build when the journal holds publishes not done (a stop or crash during their build),
   * or cannot be read (logged). Never throws.
   * @returns how many publishes it asked for again
   */
  async resume(): Promise<number> {
    const { journal, log } = this.#options
    if (!journal) return 0
    try {
      await journal.load()
    } catch (error) {
      log.error(
        { event: 'journal.unreadable', file: journal.file, error: (error as Error).message },
        'the publish journal cannot be read: building once, in case a publish was pending',
      )
      this.request({ reason: 'journal unreadable' })
      return 0
    }
    const pending = journal.pending()
    if (!pending.length) return 0
    const documents = [...new Set(pending.map((entry) => entry.documentId).filter((id) => id !== undefined))]
    for (const id of documents) if (isPublishedId(id)) this.documentStates.requested(id)
    log.info(
      { event: 'journal.resume', publishes: pending.length, documents },
      `${pending.length} publish(es) accepted before the restart and not live yet: building again`,
    )
    this.request({ reason: 'resume' })
    return pending.length
  }

  /**
   * Puts a copy of a finished export left in a folder (`npm run build`, or a build finished after a
   * stop) live through the gate, in turn with builds. One the store holds already, or none, is left.
   * @param linksOnly no HTML check (its JVM's 10-15 s would delay a start with nothing live)
   * @returns 'live', 'refused' (gate problems: logged and `lastError`), 'none', or 'failed' (logged); never throws
   */
  adopt(exportDir: string, linksOnly = false): Promise<'live' | 'refused' | 'none' | 'failed'> {
    return this.#turns.add(() => this.#adopt(exportDir, linksOnly))
  }

  status(): PublisherStatus {
    return { ...this.#status, building: this.#builds.pending > 0, queued: this.#builds.size > 0 }
  }

  /** Resolves when no build (nor `adopt`) is running or queued. */
  async idle(): Promise<void> {
    await this.#turns.onIdle()
    await this.#builds.onIdle()
  }

  /** Kills a running build's process group, cancels queued ones (cancelled, not failed); the live build stays. */
  stop(): void {
    this.#shutdown.abort()
  }

  /** @throws Error `<step>: …` when the gate cannot run */
  async #gate(exportDir: string, checks: GateOptions) {
    const live = await step('reading the live build', () => this.#options.store.liveDir())
    const gate = await step('running the publish gate', () => checkCandidate(exportDir, live, checks))
    this.#options.log.info(
      { event: 'gate', pages: gate.pages, problems: gate.problems, ms: gate.ms },
      'publish gate',
    )
    return gate
  }

  async #adopt(exportDir: string, linksOnly: boolean): Promise<'live' | 'refused' | 'none' | 'failed'> {
    const { store, log, gate = { html: false } } = this.#options
    try {
      const exported = await readBuildInfo(exportDir)
      if (!exported || (await store.list()).some((build) => build.id === exported.id)) {
        log.info(
          { event: 'adopt.none', id: exported?.id ?? null },
          exported
            ? `the export folder holds build ${exported.id}, already kept: nothing to put live`
            : 'the export folder holds no finished build: nothing to put live',
        )
        return 'none'
      }
      const problems =
        gate === 'off' ? [] : (await this.#gate(exportDir, linksOnly ? { html: false } : gate)).problems
      if (problems.length) {
        this.#status.lastError = failure(
          `the finished build ${exported.id} in the export folder did not pass the publish gate:\n${problems.join('\n')}`,
        )
        log.error(
          { event: 'adopt.refused', id: exported.id, problems },
          'the finished build in the export folder is not put live',
        )
        return 'refused'
      }
      const { previous } = await store.putLive(exportDir, 'copy')
      const pruned = await store.prune().catch((error: Error) => {
        log.warn({ event: 'prune.failed', error: error.message }, 'old builds not removed')
        return []
      })
      log.info(
        { event: 'swap', id: exported.id, previous, pruned },
        `build ${exported.id} from ${exportDir} is live`,
      )
      return 'live'
    } catch (error) {
      log.error(
        { event: 'adopt.failed', exportDir, error: (error as Error).message },
        'the finished build in the export folder could not be checked or stored; the live site is unchanged',
      )
      return 'failed'
    }
  }

  /**
   * One publish, from the build command to the swap: live, failed (counted, `lastError`, logged, each
   * carried document's state) or, on shutdown, cancelled (logged at info). The export folder goes
   * either way, and old builds beyond the kept ones (a failure is when the disk most needs it).
   */
  async #build(): Promise<void> {
    const { store, exportDir, log, journal, command, gate = { html: false } } = this.#options
    const signal = this.#shutdown.signal
    const carried = this.documentStates.startBuild()
    const journaled = journal?.pending().map((entry) => entry.id) ?? []
    // For the journal: only when the build's content decided it (not a shutdown, nor the machine).
    let outcome: 'live' | 'failed' | null = null
    log.info({ event: 'build.start', documents: carried }, 'build started')
    const started = performance.now()
    let durationMs = 0
    try {
      // A partial export (a failed or killed build) is never adopted.
      await step('removing the previous export', () => rm(exportDir, { recursive: true, force: true }))
      // The next build's history: old addresses it redirects, pages it may reuse.
      const liveDir = await step('reading the live build', () => store.liveDir())
      // Checked last: a stop before the command starts would not kill it.
      if (signal.aborted) throw new Error('the publisher is shutting down')
      const warmUp = gate === 'off' ? undefined : gate.warmUp
      let warmed = false
      const run = await runBuildCommand({
        ...command,
        env: { ...(command.env ?? process.env), PREVIOUS_BUILD_DIR: liveDir ?? '' },
        signal,
        // The checker's JVM starts once the build is past its content check: a quick failure starts none.
        milestone: warmUp && { line: CONTENT_CHECKED_LINE, reached: () => ((warmed = true), warmUp()) },
      })
      // The build's own failure (its content, its code) is the publish's final answer; one a shutdown caused is not.
      const fail = (message: string) => ((outcome = signal.aborted ? null : 'failed'), new Error(message))
      if (!run.ok) throw fail(run.error)
      durationMs = run.durationMs
      if (warmUp && !warmed)
        log.warn(
          { event: 'gate.cold', expected: CONTENT_CHECKED_LINE },
          `the build never printed "${CONTENT_CHECKED_LINE}": the HTML checker starts only now, at the gate`,
        )
      if (!(await readBuildInfo(exportDir)))
        throw fail(`the build command succeeded but left no complete export in ${exportDir}`)
      const phases = await readBuildPhases(exportDir)
      if (gate !== 'off') {
        const checked = await this.#gate(exportDir, gate)
        phases.gate = Math.round(checked.ms)
        if (checked.problems.length) throw fail(checked.problems.join('\n'))
      }
      const { info, previous, swapMs } = await step('putting the build live', () => store.putLive(exportDir))
      outcome = 'live'
      phases.swap = swapMs
      this.#status.builds.succeeded += 1
      this.#status.lastBuild = { id: info.id, durationMs, finishedAt: new Date().toISOString(), phases }
      this.documentStates.wentLive(carried, info)
      log.info({ event: 'build.done', id: info.id, durationMs }, 'build succeeded')
      log.info({ event: 'swap', id: info.id, previous }, `build ${info.id} is live`)
    } catch (caught) {
      const message = messageOf(caught)
      durationMs ||= Math.round(performance.now() - started)
      await this.#cleanUp('removing the export', () => rm(exportDir, { recursive: true, force: true }))
      if (signal.aborted) {
        this.#status.builds.cancelled += 1
        this.documentStates.cancelled(carried)
        log.info(
          { event: 'build.cancelled', reason: message, durationMs },
          'build cancelled: the publisher is shutting down; the live site is unchanged',
        )
        return
      }
      this.#status.builds.failed += 1
      this.#status.lastError = failure(message)
      this.documentStates.failed(carried, this.#status.lastError.at, message)
      log.error(
        { event: 'build.failed', error: message, durationMs },
        'build failed; the live site is unchanged',
      )
    }
    if (outcome && journaled.length)
      await journal!
        .done(journaled, outcome)
        .catch((caught: Error) =>
          log.error(
            { event: 'journal.failed', error: caught.message },
            'the publish journal could not record the end of a build: its publishes are built again on the next start',
          ),
        )
    await this.#cleanUp('pruning old builds', async () => {
      const pruned = await store.prune()
      if (pruned.length) log.info({ event: 'prune', pruned }, `old builds removed: ${pruned.join(', ')}`)
    })
  }

  /** A cleanup's failure changes no outcome but is logged (`cleanup.failed`) and kept for `/healthz`. */
  async #cleanUp(name: string, run: () => Promise<unknown>): Promise<void> {
    try {
      await run()
    } catch (error) {
      const message = stepFailure(name, error)
      this.#status.lastCleanupError = failure(message)
      this.#options.log.error({ event: 'cleanup.failed', error: message }, message)
    }
  }
}

/** @throws Error `<step>: <message>` (`stepFailure`), the step's own error as its `cause` */
async function step<T>(name: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw new Error(stepFailure(name, error), { cause: error })
  }
}
