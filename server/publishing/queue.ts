/**
 * Coalesces requests for a job that must not overlap (a site build): one run at a time, and any
 * number of requests during a run cause exactly one more run after it.
 */
import PQueue from 'p-queue'

export class CoalescingQueue {
  #queue = new PQueue({ concurrency: 1 })
  #job: () => Promise<void>

  /** @param onError told of every rejection of `run` (to log it); the queue goes on either way */
  constructor(run: () => Promise<void>, onError: (error: unknown) => void) {
    this.#job = async () => {
      try {
        await run()
      } catch (error) {
        onError(error)
      }
    }
  }

  /** True while a run is in progress. */
  get running(): boolean {
    return this.#queue.pending > 0
  }

  /** True when another run will follow the current one. */
  get pending(): boolean {
    return this.#queue.size > 0
  }

  /**
   * Asks for a run; a request while one already waits adds nothing (that run covers it).
   * @returns 'started' when it began now, 'queued' when it will follow the current run
   */
  request(): 'started' | 'queued' {
    const result = this.running ? 'queued' : 'started'
    if (!this.pending)
      this.#queue
        .add(this.#job)
        .catch((error: unknown) => console.error('queue: a run failed, and so did its error handler:', error))
    return result
  }

  /** Resolves once nothing is running or pending. */
  idle(): Promise<void> {
    return this.#queue.onIdle()
  }
}
