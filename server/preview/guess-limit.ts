/**
 * Makes guessing a secret cost: a client address with `max` wrong guesses (counted by
 * @fastify/rate-limit; right answers never count) is refused with 429 until its window ends.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

/** Wrong guesses allowed per client and window. */
export const WRONG_GUESSES = { max: 10, timeWindow: 60_000 } as const

export type GuessLimitOptions = { max: number; timeWindow: number }

/** Needs `@fastify/rate-limit` registered on the app. */
export class GuessLimit {
  #count: ReturnType<FastifyInstance['createRateLimit']>
  #lockedUntil = new Map<string, number>()
  #max: number

  /** @param options max wrong guesses per timeWindow (ms), per client */
  constructor(app: FastifyInstance, { max, timeWindow }: GuessLimitOptions) {
    this.#count = app.createRateLimit({ max, timeWindow })
    this.#max = max
  }

  /**
   * Refuses a locked client with 429 and Retry-After (seconds), before its guess costs a check.
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
   * Counts a wrong guess of the request's client (logged once per window) and locks it at the limit.
   * @param what for the log, e.g. 'preview secret'
   */
  async wrongGuess(request: FastifyRequest, what: string): Promise<void> {
    const limit = await this.#count(request)
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
