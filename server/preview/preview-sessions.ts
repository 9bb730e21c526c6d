/**
 * Editors' preview sessions, until their lifetime ends, they leave or the publisher restarts; a client's
 * own oldest ends first, so one secret holder, from one address or a few, never ends editors' elsewhere.
 */
import { randomBytes } from 'node:crypto'

/** How long a preview session lasts: a working day. The cookie's Max-Age is the same. */
export const PREVIEW_SESSION_MS = 8 * 60 * 60_000

/** Most sessions open at once. */
export const PREVIEW_SESSION_LIMIT = 10_000

/** Most sessions one client address holds: an office of editors, a few Studio tabs each, stays well under. */
export const PREVIEW_SESSIONS_PER_CLIENT = 50

/** Sessions one client address may open per window (a Studio opens one each time its Preview tool loads). */
export const PREVIEW_OPENS = { max: 30, timeWindow: 10 * 60_000 } as const

export class PreviewSessions {
  /** Each open session's cookie value (`<random id>.<issued at, ms>`), oldest first -> the client that opened it. */
  #open = new Map<string, string>()
  /** How long a session lasts, in ms. */
  readonly lifetimeMs: number
  #perClient: number
  #limit: number
  #now: () => number

  constructor({
    lifetimeMs = PREVIEW_SESSION_MS,
    perClient = PREVIEW_SESSIONS_PER_CLIENT,
    limit = PREVIEW_SESSION_LIMIT,
    now = Date.now,
  } = {}) {
    this.lifetimeMs = lifetimeMs
    this.#perClient = perClient
    this.#limit = limit
    this.#now = now
  }

  /** How many sessions are open now (expired ones not yet forgotten included). */
  get size(): number {
    return this.#open.size
  }

  /** The new session's cookie value (unsigned) for `client` (`request.ip`, which honours TRUST_PROXY). */
  open(client: string): string {
    const value = `${randomBytes(18).toString('base64url')}.${this.#now()}`
    const own = this.#sessionsOf(client)
    for (const old of own.slice(0, own.length - this.#perClient + 1)) this.#open.delete(old)
    this.#open.set(value, client)
    if (this.#open.size > this.#limit) this.#makeRoom()
    return value
  }

  /** Whether a checked cookie value names a session open and within its lifetime. */
  find(value: string): boolean {
    if (!this.#open.has(value)) return false
    if (!this.#expired(value)) return true
    this.#open.delete(value)
    return false
  }

  /** Ends a session (leaving preview); an unknown one is ignored. */
  close(value: string): void {
    this.#open.delete(value)
  }

  #expired(value: string): boolean {
    return this.#now() - Number(value.slice(value.lastIndexOf('.') + 1)) >= this.lifetimeMs
  }

  #sessionsOf(client: string): string[] {
    return [...this.#open].filter(([, owner]) => owner === client).map(([value]) => value)
  }

  /** Brings the table back to its limit: expired sessions first, then the heaviest client's oldest. */
  #makeRoom(): void {
    for (const value of this.#open.keys()) if (this.#expired(value)) this.#open.delete(value)
    while (this.#open.size > this.#limit) {
      const counts = new Map<string, number>()
      for (const client of this.#open.values()) counts.set(client, (counts.get(client) ?? 0) + 1)
      const [heaviest] = [...counts].reduce((most, next) => (next[1] > most[1] ? next : most))
      this.#open.delete(this.#sessionsOf(heaviest)[0]!)
    }
  }
}
