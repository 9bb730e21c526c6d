/**
 * Editors' preview sessions: each `/preview/enable` opens one of its own, a random id
 * and the time it was issued, carried in the preview cookie (signed with a key derived
 * from the preview secret, not the secret itself) and remembered here until it ends.
 * A session ends when its lifetime is over, when the editor leaves preview (so a copy
 * of the cookie opens nothing afterwards), or when the publisher restarts (editors enable
 * preview again; the Studio's Preview tool does it by itself).
 * Sessions are counted per client address: one client holds at most `perClient` (its
 * own oldest end first), and when the whole table is full the session that ends is the
 * oldest of the client that holds the most, so that one secret holder opening sessions
 * from one address, or a few, never ends the sessions of the editors elsewhere.
 */
import { randomBytes } from 'node:crypto'

/** How long a preview session lasts: a working day. The cookie's Max-Age is the same. */
export const PREVIEW_SESSION_MS = 8 * 60 * 60_000

/** Most sessions remembered at once. */
export const PREVIEW_SESSION_LIMIT = 10_000

/**
 * Most sessions one client address holds at once: an office of editors behind one address,
 * each with a few Studio tabs (every Presentation tool opened is a session), stays well
 * under it.
 */
export const PREVIEW_SESSIONS_PER_CLIENT = 50

/**
 * Sessions one client address may open (successful opens counted too) per window: a
 * Studio opens one each time its Preview tool loads.
 */
export const PREVIEW_OPENS = { max: 30, timeWindow: 10 * 60_000 } as const

/** A session as its cookie names it. */
export type PreviewSession = { id: string; issuedAt: number }

export type PreviewSessionsOptions = {
  /** A session's lifetime in ms (default 8 hours). */
  lifetimeMs?: number
  /** Most sessions one client holds (default PREVIEW_SESSIONS_PER_CLIENT). */
  perClient?: number
  /** Most sessions in all (default PREVIEW_SESSION_LIMIT). */
  limit?: number
  /** The clock (tests). */
  now?: () => number
}

/** See the module comment. */
export class PreviewSessions {
  /** Each open session: its issue time and the client that opened it. */
  #open = new Map<string, { issuedAt: number; client: string }>()
  /** Each client's open sessions, oldest first. */
  #byClient = new Map<string, string[]>()
  #lifetimeMs: number
  #perClient: number
  #limit: number
  #now: () => number

  /** @param options see PreviewSessionsOptions */
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
   * Opens a session for a client. At the client's limit its own oldest session ends; at the
   * table's limit, expired sessions go first, then the oldest of the client holding the most.
   * @param client the client's address (`request.ip`, which honours TRUST_PROXY)
   * @returns the cookie's (unsigned) value for the new session
   */
  open(client: string): string {
    const session = { id: randomBytes(18).toString('base64url'), issuedAt: this.#now() }
    const own = this.#byClient.get(client) ?? []
    while (own.length >= this.#perClient) this.#open.delete(own.shift()!)
    own.push(session.id)
    this.#byClient.set(client, own)
    this.#open.set(session.id, { issuedAt: session.issuedAt, client })
    if (this.#open.size > this.#limit) this.#makeRoom()
    return `${session.id}.${session.issuedAt}`
  }

  /**
   * @param value a cookie's value whose signature was checked
   * @returns the session when it is open and within its lifetime, else null
   */
  find(value: string): PreviewSession | null {
    const match = /^([\w-]{24})\.(\d{1,15})$/.exec(value)
    if (!match) return null
    const [, id, issued] = match as unknown as [string, string, string]
    const issuedAt = Number(issued)
    if (this.#open.get(id)?.issuedAt !== issuedAt) return null
    if (this.#now() - issuedAt >= this.#lifetimeMs) {
      this.#end(id)
      return null
    }
    return { id, issuedAt }
  }

  /** Ends a session (leaving preview); an unknown one is ignored. */
  close(value: string): void {
    const session = this.find(value)
    if (session) this.#end(session.id)
  }

  #end(id: string): void {
    const session = this.#open.get(id)
    if (!session) return
    this.#open.delete(id)
    const own = this.#byClient.get(session.client)?.filter((other) => other !== id) ?? []
    if (own.length) this.#byClient.set(session.client, own)
    else this.#byClient.delete(session.client)
  }

  /** Brings the table back to its limit: expired sessions first, then the heaviest client's oldest. */
  #makeRoom(): void {
    const now = this.#now()
    for (const [id, { issuedAt }] of this.#open) if (now - issuedAt >= this.#lifetimeMs) this.#end(id)
    while (this.#open.size > this.#limit) {
      let heaviest: string[] = []
      for (const own of this.#byClient.values()) if (own.length > heaviest.length) heaviest = own
      this.#end(heaviest[0]!)
    }
  }
}
