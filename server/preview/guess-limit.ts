/**
 * Makes guessing a secret cost: a client address with `max` wrong guesses (counted by
 * @fastify/rate-limit; right answers never count) is refused with 429 until its window ends.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { LRUCache } from 'lru-cache'

/** Wrong guesses allowed per client and window. */
export const WRONG_GUESSES = { max: 10, timeWindow: 60_000 } as const

/** Needs `@fastify/rate-limit` registered on the app. */
export class GuessLimit {
  #count: ReturnType<FastifyInstance['createRateLimit']>
  /** Locked clients, each until its window ends. */
  #locked = new LRUCache<string, true>({ max: 10_000 })
  #max: number

  /** @param options max wrong guesses per timeWindow (ms), per client */
  constructor(app: FastifyInstance, { max, timeWindow }: { max: number; timeWindow: number }) {
    this.#count = app.createRateLimit({ max, timeWindow })
    this.#max = max
  }

  /** Answers a locked client 429 with Retry-After (seconds), before its guess costs a check: true if so. */
  refuseIfLocked(request: FastifyRequest, reply: FastifyReply): boolean {
    const left = this.#locked.getRemainingTTL(request.ip)
    if (left <= 0) return false
    void reply
      .code(429)
      .header('Retry-After', String(Math.ceil(left / 1000)))
      .header('Cache-Control', 'no-store')
      .send({ error: 'too many wrong attempts; try again later' })
    return true
  }

  /** Counts a wrong guess (`what`, e.g. 'preview secret', logged once per window), locking at the limit. */
  async wrongGuess(request: FastifyRequest, what: string): Promise<void> {
    const limit = await this.#count(request)
    if (limit.isAllowed) return
    const { ip } = request
    if (this.#max - limit.remaining === 1)
      request.log.warn(
        { event: 'guess.wrong', what, client: ip },
        `wrong ${what} from ${ip} (further ones in this minute are counted, not logged)`,
      )
    if (limit.remaining > 0 || this.#locked.has(ip)) return
    this.#locked.set(ip, true, { ttl: limit.ttl })
    const seconds = Math.ceil(limit.ttl / 1000)
    request.log.warn(
      { event: 'guess.locked', what, client: ip, seconds },
      `${this.#max} wrong attempts from ${ip}: refused for ${seconds} s`,
    )
  }
}
