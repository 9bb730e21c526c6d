/**
 * Each document's last publish through this publisher, as the Studio's badge shows it
 * (publish-status.ts answers it): building from the webhook until its build ends, then
 * live in that build or failed with the reason. A build carries every publish requested
 * before it started; later ones wait for the next. Kept in memory: a publisher that
 * restarts knows no document until it publishes it again.
 */
import { DocumentId, getPublishedId } from '@sanity/id-utils'
import type { BuildInfo } from '../lib/build-output.ts'

/**
 * The state of one document's last publish, as the Studio shows it:
 * building (requested, not finished), live (since when, in which build), or failed
 * (not live, with the reason the build or the gate gave).
 */
export type DocumentStatus =
  | { state: 'building'; since: string }
  | { state: 'live'; since: string; buildId: string }
  | { state: 'failed'; at: string; reason: string }

/** How many documents' states are remembered (the oldest are forgotten first). */
export const DOCUMENT_STATUS_LIMIT = 1000

/** The published id of a document (`drafts.x` and `x` are one document to an editor). */
const publishedIdOf = (id: string): string => getPublishedId(DocumentId(id))

/** See the module comment. */
export class DocumentPublishStates {
  /** Documents whose publish the next build carries (published ids). */
  #requested = new Set<string>()
  #states = new Map<string, DocumentStatus>()
  #limit: number

  /** @param limit how many documents' states are remembered (default DOCUMENT_STATUS_LIMIT) */
  constructor(limit = DOCUMENT_STATUS_LIMIT) {
    this.#limit = limit
  }

  /**
   * A publish of the document was requested: it is building from now, and the next build carries it.
   * @param documentId its `_id` (a `drafts.` prefix is ignored)
   * @param at when, ISO 8601 (default now)
   */
  requested(documentId: string, at = new Date().toISOString()): void {
    const id = publishedIdOf(documentId)
    this.#requested.add(id)
    this.#set(id, { state: 'building', since: at })
  }

  /**
   * A build starts: it carries every publish requested so far.
   * @returns the published ids it carries, for `wentLive` or `failed` when it ends
   */
  startBuild(): string[] {
    const carried = [...this.#requested]
    this.#requested.clear()
    return carried
  }

  /**
   * A build went live. It holds the whole dataset as it is now, so a document whose earlier
   * publish failed is live in it too (its content was fixed, or it never was the problem).
   * @param carried the ids `startBuild` gave for this build
   * @param build the live build's marker (its id, and when it was built: the `since`)
   */
  wentLive(carried: readonly string[], build: BuildInfo): void {
    const failedBefore = [...this.#states].filter(([, status]) => status.state === 'failed')
    for (const id of [...carried, ...failedBefore.map(([id]) => id)])
      this.#set(id, { state: 'live', since: build.builtAt, buildId: build.id })
  }

  /**
   * A build failed: the documents it carried are not live.
   * @param carried the ids `startBuild` gave for this build
   * @param at when it failed, ISO 8601
   * @param reason the build's or the gate's whole error (publish-status.ts shows each editor their part)
   */
  failed(carried: readonly string[], at: string, reason: string): void {
    for (const id of carried) this.#set(id, { state: 'failed', at, reason })
  }

  /**
   * A build was cancelled (the publisher is shutting down): the documents it carried stay
   * building, and the next build carries them again, as if it had never started.
   * @param carried the ids `startBuild` gave for this build
   */
  cancelled(carried: readonly string[]): void {
    for (const id of carried) this.#requested.add(id)
  }

  /**
   * The state of one document's last publish.
   * @param documentId its `_id` (a `drafts.` prefix is ignored)
   * @returns null when this publisher has not published it since it started
   */
  get(documentId: string): DocumentStatus | null {
    return this.#states.get(publishedIdOf(documentId)) ?? null
  }

  #set(id: string, status: DocumentStatus): void {
    this.#states.delete(id)
    this.#states.set(id, status)
    if (this.#states.size > this.#limit) this.#states.delete(this.#states.keys().next().value!)
  }
}
