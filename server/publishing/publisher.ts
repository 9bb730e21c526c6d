/**
 * The publisher: turns "content was published" into a new live site: coalesced builds, each through
 * the publish gate into the build store and live by an atomic swap; a failed one changes nothing
 * visitors see (docs/publishing.md).
 */
import { rm } from 'node:fs/promises'
import type { Logger } from 'pino'
import { messageOf, runBuildCommand, stepFailure, type BuildCommand } from './build-command.ts'
import type { BuildStore } from './build-store.ts'
import { DocumentPublishStates } from './document-publish-states.ts'
import { CONTENT_CHECKED_LINE, readBuildInfo, readBuildPhases } from '../../lib/build-output.ts'
import { isPublishedId } from '../../lib/content/source.ts'
import { checkCandidate, type GateOptions } from './gate.ts'
import { CoalescingQueue } from './queue.ts'
import type { Delivery, PublishJournal } from './publish-journal.ts'

/**
 * The last build that went live: its id, how long the build command ran, when it went
 * live, and each step's time in ms (the build's own, from its `.build-phases.json`,
 * then the publisher's `gate` and `swap`), for `/healthz` and the bench.
 */
type BuildRecord = { id: string; durationMs: number; finishedAt: string; phases: Record<string, number> }
/** The last build of a kind that failed, and why. */
type FailureRecord = { message: string; at: string }

/**
 * What `/healthz` reports about publishing. `builds` counts publishes that went live, that
 * failed and that the publisher's shutdown cancelled (not a failure); `lastError` is the
 * last failed publish's reason; `lastCleanupError` the last time removing an export or old
 * builds failed (space not given back; no publish's outcome).
 */
export type PublisherStatus = {
  building: boolean
  queued: boolean
  builds: { succeeded: number; failed: number; cancelled: number }
  lastBuild: BuildRecord | null
  lastError: FailureRecord | null
  lastCleanupError: FailureRecord | null
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
  /** Where accepted publishes are kept until done (without one, a stop loses a running build's publishes). */
  journal?: PublishJournal
}

/** See the module comment. */
export class Publisher {
  #options: PublisherOptions
  #queue: CoalescingQueue
  #shutdown = new AbortController()
  #status: PublisherStatus = {
    building: false,
    queued: false,
    builds: { succeeded: 0, failed: 0, cancelled: 0 },
    lastBuild: null,
    lastError: null,
    lastCleanupError: null,
  }
  /** Each document's last publish, for the Studio's badge (publish-status.ts). */
  readonly documentStates = new DocumentPublishStates()

  /**
   * The last of the builds and adoptions (`adopt`) asked for: they run one at a time, as
   * each reads the export folder, which a build first empties.
   */
  #turn: Promise<unknown> = Promise.resolve()

  constructor(options: PublisherOptions) {
    this.#options = options
    // #build ends every publish itself; anything that still escapes it is logged, never lost.
    this.#queue = new CoalescingQueue(
      () => this.#inTurn(() => this.#build()),
      (error) =>
        options.log.error(
          { event: 'build.error', error: (error as Error | null)?.stack ?? messageOf(error) },
          'a build ended by an error its own handling did not catch',
        ),
    )
  }

  /**
   * Asks for a rebuild (e.g. after a verified webhook). Returns at once. A draft or a
   * release version asks for nothing: editors' preview renders it on request
   * (server/preview/preview-process.ts). Nor does a document of one of NOT_CONTENT_TYPES.
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

  /**
   * A publish the webhook accepted: recorded in the journal first, then requested.
   * @returns as `request`, or 'duplicate' when the journal already holds its idempotency key
   * @throws the journal's error when it could not be written: nothing was requested (no 2xx)
   */
  async accept(delivery: Delivery): Promise<'started' | 'queued' | 'skipped' | 'duplicate'> {
    const { type, documentId } = delivery
    if ((type && NOT_CONTENT_TYPES.has(type)) || (documentId && !isPublishedId(documentId)))
      return this.request(delivery)
    const journal = this.#options.journal
    if (journal && (await journal.accept(delivery)) === 'duplicate') return 'duplicate'
    return this.request(delivery)
  }

  /**
   * On start: requests one build when the journal holds publishes accepted and not done (a stop or a
   * crash during their build). Never throws: an unreadable journal is logged and one build requested.
   * @returns how many publishes it asked for again (0: none, no build)
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
    for (const entry of pending)
      if (entry.documentId && isPublishedId(entry.documentId)) this.documentStates.requested(entry.documentId)
    log.info(
      {
        event: 'journal.resume',
        publishes: pending.length,
        documents: [...new Set(pending.map((entry) => entry.documentId).filter(Boolean))],
      },
      `${pending.length} publish(es) accepted before the restart and not live yet: building again`,
    )
    this.request({ reason: 'resume' })
    return pending.length
  }

  /**
   * Checks a finished export left in a folder (a leftover `out/`: `npm run build`, or a build
   * that finished after the publisher was stopped) with the publish gate and puts a copy of
   * it live, as a publish's build goes live; builds wait until it is done. An export the
   * store already holds, or none, is left alone.
   * @param linksOnly check links and assets only, not the HTML (the HTML checker's start,
   *   10-15 s of Java, would delay a start with nothing live: see startup.ts)
   * @returns 'live', 'refused' (the gate found problems: logged, and `lastError`), 'none'
   *   (no complete export there, or one already kept), or 'failed' (it could not be checked
   *   or stored: logged); never throws
   */
  adopt(exportDir: string, linksOnly = false): Promise<'live' | 'refused' | 'none' | 'failed'> {
    return this.#inTurn(() => this.#adopt(exportDir, linksOnly))
  }

  /** Current state, for `/healthz`. */
  status(): PublisherStatus {
    return { ...this.#status, building: this.#queue.running, queued: this.#queue.pending }
  }

  /** Resolves when no build (nor `adopt`) is running or queued. */
  async idle(): Promise<void> {
    await this.#turn
    return this.#queue.idle()
  }

  /** Runs `run` after every build and adoption asked for before it. */
  #inTurn<T>(run: () => Promise<T>): Promise<T> {
    const next = this.#turn.then(run)
    this.#turn = next.catch(() => undefined)
    return next
  }

  async #adopt(exportDir: string, linksOnly: boolean): Promise<'live' | 'refused' | 'none' | 'failed'> {
    const { store, log } = this.#options
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
      const problems = await this.#gate(exportDir, linksOnly)
      if (problems?.length) {
        const message = `the finished build ${exported.id} in the export folder did not pass the publish gate:\n${problems.join('\n')}`
        this.#status.lastError = { message, at: new Date().toISOString() }
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
   * The publish gate on a leftover export (options.gate; links only when `linksOnly`), logged
   * as a build's is.
   * @returns its problems (empty: it may go live), or null when the gate is off
   * @throws Error when a check cannot run (the HTML checker)
   */
  async #gate(exportDir: string, linksOnly: boolean): Promise<string[] | null> {
    const checks = this.#options.gate ?? { html: false }
    if (checks === 'off') return null
    const live = await this.#options.store.liveDir()
    const gate = await checkCandidate(exportDir, live, linksOnly ? { html: false } : checks)
    this.#options.log.info(
      { event: 'gate', pages: gate.pages, problems: gate.problems, ms: gate.ms },
      'publish gate',
    )
    return gate.problems
  }

  /**
   * Kills a running build (its process group) and cancels queued ones; the live build stays.
   * For shutdown: such a build is cancelled (logged at info), not failed.
   */
  stop(): void {
    this.#shutdown.abort()
  }

  /**
   * Runs the build command into the export folder and checks that it left a complete export.
   * @param warmUp starts the gate's HTML checker; called once the build is past its content
   *   check (CONTENT_CHECKED_LINE), so a build that fails within seconds starts no JVM
   * @returns how long the command ran
   * @throws Error with the reason when a step failed, the command failed or it left no export
   */
  async #runBuildCommand(verdict: { final: boolean }, warmUp?: () => void): Promise<number> {
    const { command, exportDir } = this.#options
    // A previous failed or killed build may have left a partial export; never adopt it.
    await step('removing the previous export', () => rm(exportDir, { recursive: true, force: true }))
    // The live build is the next build's history: old addresses it redirects, pages it may reuse.
    const previous = await step('reading the live build', () => this.#options.store.liveDir())
    // Checked last: a stop before the command starts would not kill it.
    if (this.#shutdown.signal.aborted) throw new Error('the publisher is shutting down')
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
    // The build's own failure (its content, its code) is the publish's final answer; one the
    // shutdown caused is not.
    verdict.final = !this.#shutdown.signal.aborted
    if (!outcome.ok) throw new Error(outcome.error)
    if (warmUp && !warmed)
      this.#options.log.warn(
        { event: 'gate.cold', expected: CONTENT_CHECKED_LINE },
        `the build never printed "${CONTENT_CHECKED_LINE}": the HTML checker starts only now, at the gate`,
      )
    if (!(await readBuildInfo(exportDir)))
      throw new Error(`the build command succeeded but left no complete export in ${exportDir}`)
    verdict.final = false
    return outcome.durationMs
  }

  /**
   * One publish, from the build command to the swap. Every error on the way ends it: failed
   * (counted, `lastError`, logged, each carried document's state), or cancelled when the
   * publisher is shutting down (logged at info, not a failure). Either way the export
   * folder is removed. Old builds are pruned after a failure as after a success.
   */
  async #build(): Promise<void> {
    const { store, exportDir, log, journal } = this.#options
    const carried = this.documentStates.startBuild()
    const journaled = journal?.pending().map((entry) => entry.id) ?? []
    // Final only when the build's content decided it (not a shutdown, nor the machine failing).
    let outcome: 'live' | 'failed' | null = null
    const verdict = { final: false }
    log.info({ event: 'build.start', documents: carried }, 'build started')
    const started = performance.now()
    let durationMs = 0
    try {
      const checks = this.#options.gate ?? { html: false }
      durationMs = await this.#runBuildCommand(verdict, checks === 'off' ? undefined : checks.warmUp)
      const phases = await readBuildPhases(exportDir)
      if (checks !== 'off') {
        const live = await step('reading the live build', () => store.liveDir())
        const gate = await step('running the publish gate', () => checkCandidate(exportDir, live, checks))
        log.info({ event: 'gate', pages: gate.pages, problems: gate.problems, ms: gate.ms }, 'publish gate')
        phases.gate = Math.round(gate.ms)
        if (gate.problems.length) {
          outcome = 'failed'
          throw new Error(gate.problems.join('\n'))
        }
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
      if (verdict.final) outcome = 'failed'
      const message = messageOf(caught)
      durationMs ||= Math.round(performance.now() - started)
      // A half-written export holds space, and is never adopted.
      await this.#cleanUp('removing the export', () => rm(exportDir, { recursive: true, force: true }))
      if (this.#shutdown.signal.aborted) {
        this.#status.builds.cancelled += 1
        this.documentStates.cancelled(carried)
        log.info(
          { event: 'build.cancelled', reason: message, durationMs },
          'build cancelled: the publisher is shutting down; the live site is unchanged',
        )
        return
      }
      this.#status.builds.failed += 1
      this.#status.lastError = { message, at: new Date().toISOString() }
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
    // Old builds beyond the kept ones go after every publish, not only a good one: a failure
    // is when the disk most needs them gone (never the live one, see BuildStore.prune).
    await this.#cleanUp('pruning old builds', async () => {
      const pruned = await store.prune()
      if (pruned.length) log.info({ event: 'prune', pruned }, `old builds removed: ${pruned.join(', ')}`)
    })
  }

  /**
   * Runs a cleanup step. A failure there changes no publish's outcome (the build went live,
   * or had already failed) but is shown: logged at error (`cleanup.failed`) and kept as
   * `lastCleanupError` for `/healthz`.
   */
  async #cleanUp(name: string, run: () => Promise<unknown>): Promise<void> {
    try {
      await run()
    } catch (error) {
      const message = stepFailure(name, error)
      this.#status.lastCleanupError = { message, at: new Date().toISOString() }
      this.#options.log.error({ event: 'cleanup.failed', error: message }, message)
    }
  }
}

/**
 * Runs one step of a build.
 * @throws Error `<step>: <message>` (`stepFailure`: a full disk says so first), the step's
 *   own error as its `cause`
 */
async function step<T>(name: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw new Error(stepFailure(name, error), { cause: error })
  }
}
