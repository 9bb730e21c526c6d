/** Coalesces an editor's preview refreshes: Presentation reports every saved change, and the page only needs the latest. */

/** A render waited for: the requests it answers settle with it. */
type Waiters = { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void }

function waiters(): Waiters {
  let resolve!: () => void
  let reject!: (error: unknown) => void
  const promise = new Promise<void>((yes, no) => {
    resolve = yes
    reject = no
  })
  return { promise, resolve, reject }
}

/**
 * At most one render in flight; the requests that arrive meanwhile share one more, started when
 * it ends (the last change wins).
 * @param render starts one render; its promise settles when that render has committed (or failed)
 * @param timeoutMs after which a render counts as failed and the next may start (beyond the preview
 *   server's 20 s limit)
 * @returns `request()`, whose promise settles with a render started after it (rejects with its
 *   error, or a timeout); a failed render never stops the next
 */
export function coalesceRefreshes(
  render: () => Promise<void>,
  { timeoutMs = 30_000 }: { timeoutMs?: number } = {},
): () => Promise<void> {
  let inFlight = false
  let next: Waiters | undefined

  const start = (covered: Waiters) => {
    inFlight = true
    let timer: ReturnType<typeof setTimeout> | undefined
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`preview refresh: the render did not commit within ${timeoutMs} ms`)),
        timeoutMs,
      )
    })
    // A render that throws at once fails like one whose promise rejects.
    const rendered = new Promise<void>((resolve) => resolve(render()))
    Promise.race([rendered, limit])
      .then(covered.resolve, covered.reject)
      .finally(() => {
        clearTimeout(timer)
        inFlight = false
        const following = next
        next = undefined
        if (following) start(following)
      })
  }

  return () => {
    if (inFlight) {
      next ??= waiters()
      return next.promise
    }
    const covered = waiters()
    start(covered)
    return covered.promise
  }
}
