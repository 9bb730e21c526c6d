/**
 * Coalesces requests for a job that must not overlap (a site build): one run at
 * a time, and any number of requests during a run cause exactly one more run
 * after it, which then covers all of them.
 */
export class CoalescingQueue {
  #run: () => Promise<void>
  #onError: (error: unknown) => void
  #running: Promise<void> | null = null
  #pending = false
  #idleWaiters: (() => void)[] = []

  /**
   * @param run the job
   * @param onError told of every rejection of `run` (to log it: the queue never swallows
   *   one); the queue goes on either way
   */
  constructor(run: () => Promise<void>, onError: (error: unknown) => void) {
    this.#run = run
    this.#onError = onError
  }

  /** True while a run is in progress. */
  get running(): boolean {
    return this.#running !== null
  }

  /** True when another run will follow the current one. */
  get pending(): boolean {
    return this.#pending
  }

  /**
   * Asks for a run.
   * @returns 'started' when it began now, 'queued' when it will follow the current run
   */
  request(): 'started' | 'queued' {
    if (this.#running) {
      this.#pending = true
      return 'queued'
    }
    this.#start()
    return 'started'
  }

  /** Resolves once nothing is running or pending. */
  idle(): Promise<void> {
    if (!this.#running) return Promise.resolve()
    return new Promise((resolve) => this.#idleWaiters.push(resolve))
  }

  #start(): void {
    let run: Promise<void>
    try {
      run = this.#run()
    } catch (error) {
      run = Promise.reject(error)
    }
    this.#running = run
      .catch((error: unknown) => this.#onError(error))
      // An error handler that throws must not stop the queue, nor leave idle() waiting forever.
      .catch((error: unknown) => console.error('queue: a run failed, and so did its error handler:', error))
      .then(() => {
        this.#running = null
        if (this.#pending) {
          this.#pending = false
          this.#start()
        } else {
          for (const resolve of this.#idleWaiters.splice(0)) resolve()
        }
      })
  }
}
