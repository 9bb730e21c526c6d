/**
 * @jest-environment node
 */
import { coalesceRefreshes } from '@/lib/preview-refresh'

/** A render the test finishes by hand: each call of `render` starts one. */
function renders() {
  const started: { finish: () => void; fail: (error: Error) => void }[] = []
  const render = () =>
    new Promise<void>((resolve, reject) => {
      started.push({ finish: resolve, fail: reject })
    })
  return { render, started }
}

/** Lets promise callbacks run (settled renders start the next one a few microtasks later). */
const settle = async () => {
  for (let tick = 0; tick < 10; tick++) await Promise.resolve()
}

/** Records when each promise settles, in order: 'a ok', 'b failed: …'. */
function track(log: string[], name: string, promise: Promise<void>) {
  promise.then(
    () => log.push(`${name} ok`),
    (error: Error) => log.push(`${name} failed: ${error.message}`),
  )
}

describe('coalesceRefreshes', () => {
  afterEach(() => jest.useRealTimers())

  it('starts a render at once when none is in flight, and resolves when it commits', async () => {
    const { render, started } = renders()
    const request = coalesceRefreshes(render)
    const log: string[] = []
    track(log, 'a', request())
    expect(started).toHaveLength(1)
    await settle()
    expect(log).toEqual([])
    started[0]!.finish()
    await settle()
    expect(log).toEqual(['a ok'])
  })

  it('keeps one render in flight: requests meanwhile share exactly one more, after it', async () => {
    const { render, started } = renders()
    const request = coalesceRefreshes(render)
    const log: string[] = []
    track(log, 'first', request())
    for (let change = 1; change <= 20; change++) track(log, `change ${change}`, request())
    expect(started).toHaveLength(1)

    started[0]!.finish()
    await settle()
    // The first render started before the changes: it answers the first request only.
    expect(log).toEqual(['first ok'])
    expect(started).toHaveLength(2)

    started[1]!.finish()
    await settle()
    expect(log).toEqual(['first ok', ...Array.from({ length: 20 }, (_, index) => `change ${index + 1} ok`)])
    expect(started).toHaveLength(2)
  })

  it('a request during the follow-up waits for a render started after it', async () => {
    const { render, started } = renders()
    const request = coalesceRefreshes(render)
    const log: string[] = []
    track(log, 'a', request())
    track(log, 'b', request())
    started[0]!.finish()
    await settle()
    track(log, 'c', request())
    started[1]!.finish()
    await settle()
    expect(log).toEqual(['a ok', 'b ok'])
    expect(started).toHaveLength(3)
    started[2]!.finish()
    await settle()
    expect(log).toEqual(['a ok', 'b ok', 'c ok'])
  })

  it('starts afresh once idle: no render runs without a request', async () => {
    const { render, started } = renders()
    const request = coalesceRefreshes(render)
    const done = request()
    started[0]!.finish()
    await done
    await settle()
    expect(started).toHaveLength(1)
    const again = request()
    expect(started).toHaveLength(2)
    started[1]!.finish()
    await expect(again).resolves.toBeUndefined()
  })

  it('a failed render rejects its own requests and does not wedge the next', async () => {
    const { render, started } = renders()
    const request = coalesceRefreshes(render)
    const log: string[] = []
    track(log, 'a', request())
    track(log, 'b', request())
    started[0]!.fail(new Error('the server answered 503'))
    await settle()
    expect(log).toEqual(['a failed: the server answered 503'])
    expect(started).toHaveLength(2)
    started[1]!.finish()
    await settle()
    expect(log).toEqual(['a failed: the server answered 503', 'b ok'])
  })

  it('a render that throws at once fails its request and leaves the next free to start', async () => {
    let calls = 0
    const request = coalesceRefreshes(() => {
      calls += 1
      if (calls === 1) throw new Error('no router yet')
      return Promise.resolve()
    })
    await expect(request()).rejects.toThrow('no router yet')
    await settle()
    await expect(request()).resolves.toBeUndefined()
    expect(calls).toBe(2)
  })

  it('a render that never commits counts as failed after the time limit, and the next one starts', async () => {
    jest.useFakeTimers()
    const { render, started } = renders()
    const request = coalesceRefreshes(render, { timeoutMs: 5_000 })
    const log: string[] = []
    track(log, 'stuck', request())
    track(log, 'next', request())
    jest.advanceTimersByTime(4_999)
    await settle()
    expect(log).toEqual([])
    jest.advanceTimersByTime(1)
    await settle()
    expect(log).toEqual(['stuck failed: preview refresh: the render did not commit within 5000 ms'])
    expect(started).toHaveLength(2)
    // The stuck render finishing late changes nothing.
    started[0]!.finish()
    await settle()
    expect(log).toHaveLength(1)
    started[1]!.finish()
    await settle()
    expect(log).toEqual([
      'stuck failed: preview refresh: the render did not commit within 5000 ms',
      'next ok',
    ])
    // Its timer was cleared: nothing fires later.
    jest.advanceTimersByTime(60_000)
    await settle()
    expect(log).toHaveLength(2)
  })
})
