/**
 * Editors' preview sessions (the preview cookie names one), open until their lifetime ends, the editor
 * leaves preview or the publisher restarts. One client address holds at most `perClient` (its own oldest
 * ends first), and a full table ends the oldest of the client holding the most: a secret holder opening
 * sessions from one address, or a few, never ends those of editors elsewhere.
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

/** A session as its cookie names it. */
export type PreviewSession = { id: string; issuedAt: number }

/** Defaults: PREVIEW_SESSION_MS, PREVIEW_SESSIONS_PER_CLIENT, PREVIEW_SESSION_LIMIT, Date.now. */
export type PreviewSessionsOptions = {
  lifetimeMs?: number
  perClient?: number
  limit?: number
  now?: () => number
}

export class PreviewSessions {
  /** Each open session, oldest first, with the client that opened it. */
  #open = new Map<string, { issuedAt: number; client: string }>()
  #lifetimeMs: number
  #perClient: number
  #limit: number
  #now: () => number

  constructor({
    lifetimeMs = PREVIEW_SESSION_MS,
    perClient = PREVIEW_SESSIONS_PER_CLIENT,
    limit = PREVIEW_SESSION_LIMIT,
    now = Date.now,
  }: PreviewSessionsOptions = {}) {
    this.#lifetimeMs = lifetimeMs
    this.#perClient = perClient
    this.#limit = limit
    this.#now = now
  }

  /** How long a session lasts, in ms. */
  get lifetimeMs(): number {
    return this.#lifetimeMs
  }

  /** How many sessions are open now (expired ones not yet forgotten included). */
  get size(): number {
    return this.#open.size
  }

  /**
   * Opens a session for a client, ending others as the module comment says.
   * @param client the client's address (`request.ip`, which honours TRUST_PROXY)
   * @returns the cookie's (unsigned) value for the new session
   */
  open(client: string): string {
    const id = randomBytes(18).toString('base64url')
    const issuedAt = this.#now()
    const own = this.#sessionsOf(client)
    for (const old of own.slice(0, own.length - this.#perClient + 1)) this.#open.delete(old)
    this.#open.set(id, { issuedAt, client })
    if (this.#open.size > this.#limit) this.#makeRoom()
    return `${id}.${issuedAt}`
  }

  /** The session a checked cookie value names, when open and within its lifetime; else null. */
  find(value: string): PreviewSession | null {
    const match = /^([\w-]{24})\.(\d{1,15})$/.exec(value)
    if (!match) return null
    const [, id, issued] = match as unknown as [string, string, string]
    const issuedAt = Number(issued)
    if (this.#open.get(id)?.issuedAt !== issuedAt) return null
    if (this.#expired(issuedAt)) {
      this.#open.delete(id)
      return null
    }
    return { id, issuedAt }
  }

  /** Ends a session (leaving preview); an unknown one is ignored. */
  close(value: string): void {
    const session = this.find(value)
    if (session) this.#open.delete(session.id)
  }

  #expired(issuedAt: number): boolean {
    return this.#now() - issuedAt >= this.#lifetimeMs
  }

  #sessionsOf(client: string): string[] {
    return [...this.#open].filter(([, session]) => session.client === client).map(([id]) => id)
  }

  /** Brings the table back to its limit: expired sessions first, then the heaviest client's oldest. */
  #makeRoom(): void {
    for (const [id, { issuedAt }] of this.#open) if (this.#expired(issuedAt)) this.#open.delete(id)
    while (this.#open.size > this.#limit) {
      const counts = new Map<string, number>()
      for (const { client } of this.#open.values()) counts.set(client, (counts.get(client) ?? 0) + 1)
      const [heaviest] = [...counts].reduce((most, next) => (next[1] > most[1] ? next : most))
      this.#open.delete(this.#sessionsOf(heaviest)[0]!)
    }
  }
}
