/** Coalesces an editor's preview refreshes: Presentation reports every saved change, and the page only needs the latest. */

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
 * At most one render in flight; the requests that arrive meanwhile share one more after it (the last
 * change wins). A render past `timeoutMs` counts as failed; a failed render never stops the next.
 * @returns `request()`, settling with a render that started after it
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
