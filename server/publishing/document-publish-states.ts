/** Each document's last publish, in memory: a build carries every publish requested before it started. */
import { DocumentId, getPublishedId } from '@sanity/id-utils'
import { LRUCache } from 'lru-cache'
import type { BuildInfo } from '../../lib/build-output.ts'

export type DocumentStatus =
  | { state: 'building'; since: string }
  | { state: 'live'; since: string; buildId: string }
  | { state: 'failed'; at: string; reason: string }

/** Documents remembered; the least recently published are forgotten first. */
export const DOCUMENT_STATUS_LIMIT = 1000

const publishedIdOf = (id: string): string => getPublishedId(DocumentId(id))

export class DocumentPublishStates {
  /** Published ids the next build carries. */
  #requested = new Set<string>()
  #states: LRUCache<string, DocumentStatus>

  constructor(limit = DOCUMENT_STATUS_LIMIT) {
    this.#states = new LRUCache({ max: limit })
  }

  /** The document (any `_id` form) is building from `at` (ISO 8601), and the next build carries it. */
  requested(documentId: string, at = new Date().toISOString()): void {
    const id = publishedIdOf(documentId)
    this.#requested.add(id)
    this.#states.set(id, { state: 'building', since: at })
  }

  /** @returns the published ids the starting build carries, for `wentLive`, `failed` or `cancelled` */
  startBuild(): string[] {
    const carried = [...this.#requested]
    this.#requested.clear()
    return carried
  }

  /** A build holds the whole dataset: earlier failures are live in it too. */
  wentLive(carried: readonly string[], build: BuildInfo): void {
    const failedBefore = [...this.#states.rkeys()].filter((id) => this.#states.peek(id)?.state === 'failed')
    for (const id of [...carried, ...failedBefore])
      this.#states.set(id, { state: 'live', since: build.builtAt, buildId: build.id })
  }

  /** `reason` is the whole error; publish-status.ts shows each editor their part. */
  failed(carried: readonly string[], at: string, reason: string): void {
    for (const id of carried) this.#states.set(id, { state: 'failed', at, reason })
  }

  /** The documents it carried stay building, for the next build. */
  cancelled(carried: readonly string[]): void {
    for (const id of carried) this.#requested.add(id)
  }

  /** Null when this publisher has not published it since it started. */
  get(documentId: string): DocumentStatus | null {
    return this.#states.peek(publishedIdOf(documentId)) ?? null
  }
}
