/**
 * When an editor's preview renders again: Presentation reports every saved change (as
 * fast as the editor types) and asks again a second after the last one. Rendering the
 * page once per report piles renders up behind each other and the frame flickers through
 * each of them; the page only needs to catch up with the latest content.
 */

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
 * Coalesces refreshes: at most one render in flight; requests that arrive meanwhile share
 * one more render, started when it ends (whatever they asked for, the content read then is
 * the latest: the last change wins).
 * @param render starts one render of the page; its promise settles when that render has
 *   committed (or failed)
 * @param timeoutMs how long a render may take, in ms, before it counts as failed and the
 *   next one may start (a render that never settles must not stop every later refresh);
 *   the default is beyond the 20 s after which the preview server answers a render with a
 *   page saying it took too long
 * @returns `request()`: asks for a render; its promise resolves when a render that started
 *   after the request has committed, and rejects with that render's error (or a timeout
 *   naming `timeoutMs`); a failed render never stops the next
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
