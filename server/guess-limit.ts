/**
 * Makes guessing a secret cost: wrong guesses are counted per client address, and a
 * client that made `max` of them in a window is refused (429 with Retry-After) until the
 * window ends, before its next guess is even checked (a Presentation secret's check is a
 * Content Lake query). Right answers are never counted, so editors behind one address
 * are not locked out by each other's visits. The counting is @fastify/rate-limit's
 * (its store, its per-address key, which honours TRUST_PROXY); the log gets one line
 * per client and window: when its first wrong guess comes, and when it is locked.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

/** Wrong guesses allowed per client and window. */
export const WRONG_GUESSES = { max: 10, timeWindow: 60_000 } as const

export type GuessLimitOptions = { max: number; timeWindow: number }

/** See the module comment. Needs `@fastify/rate-limit` registered on the app. */
export class GuessLimit {
  #count: ReturnType<FastifyInstance['createRateLimit']>
  #lockedUntil = new Map<string, number>()
  #max: number

  /**
   * @param app the Fastify app, with @fastify/rate-limit registered
   * @param options max wrong guesses per timeWindow (ms), per client
   */
  constructor(app: FastifyInstance, { max, timeWindow }: GuessLimitOptions) {
    this.#count = app.createRateLimit({ max, timeWindow })
    this.#max = max
  }

  /**
   * Refuses a locked client with 429 and Retry-After (seconds).
   * @returns true when the request was answered (the caller stops there)
   */
  refuseIfLocked(request: FastifyRequest, reply: FastifyReply): boolean {
    const until = this.#lockedUntil.get(request.ip)
    if (until === undefined) return false
    const left = until - Date.now()
    if (left <= 0) {
      this.#lockedUntil.delete(request.ip)
      return false
    }
    void reply
      .code(429)
      .header('Retry-After', String(Math.ceil(left / 1000)))
      .header('Cache-Control', 'no-store')
      .send({ error: 'too many wrong attempts; try again later' })
    return true
  }

  /**
   * Counts a wrong guess of the request's client; locks the client at the limit.
   * @param what for the log, e.g. 'preview secret'
   */
  async wrongGuess(request: FastifyRequest, what: string): Promise<void> {
    const limit = await this.#count(request)
    // isAllowed: an address on the plugin's allow list, never counted.
    if (limit.isAllowed) return
    const used = this.#max - limit.remaining
    if (used === 1)
      request.log.warn(
        { event: 'guess.wrong', what, client: request.ip },
        `wrong ${what} from ${request.ip} (further ones in this minute are counted, not logged)`,
      )
    if (limit.remaining === 0 && !this.#lockedUntil.has(request.ip)) {
      this.#lockedUntil.set(request.ip, Date.now() + limit.ttl)
      request.log.warn(
        { event: 'guess.locked', what, client: request.ip, seconds: Math.ceil(limit.ttl / 1000) },
        `${this.#max} wrong attempts from ${request.ip}: refused for ${Math.ceil(limit.ttl / 1000)} s`,
      )
      // Bounded: forget locks that ended.
      if (this.#lockedUntil.size > 10_000)
        for (const [client, end] of this.#lockedUntil) if (end <= Date.now()) this.#lockedUntil.delete(client)
    }
  }
}
