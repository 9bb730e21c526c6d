/**
 * Editors' preview sessions: each `/preview/enable` opens one of its own, a random id
 * and the time it was issued, carried in the preview cookie (signed with a key derived
 * from the preview secret, not the secret itself) and remembered here until it ends.
 * A session ends when its lifetime is over, when the editor leaves preview (so a copy
 * of the cookie opens nothing afterwards), or when the publisher restarts (editors enable
 * preview again; the Studio's Preview tool does it by itself).
 */
import { randomBytes } from 'node:crypto'

/** How long a preview session lasts: a working day. The cookie's Max-Age is the same. */
export const PREVIEW_SESSION_MS = 8 * 60 * 60_000

/** Most sessions remembered at once (the oldest are ended first). */
export const PREVIEW_SESSION_LIMIT = 10_000

/** A session as its cookie names it. */
export type PreviewSession = { id: string; issuedAt: number }

/** See the module comment. */
export class PreviewSessions {
  #open = new Map<string, number>()
  #lifetimeMs: number
  #now: () => number

  /** @param options lifetimeMs (default 8 hours), now (tests) */
  constructor({ lifetimeMs = PREVIEW_SESSION_MS, now = Date.now } = {}) {
    this.#lifetimeMs = lifetimeMs
    this.#now = now
  }

  /** How long a session lasts, in ms. */
  get lifetimeMs(): number {
    return this.#lifetimeMs
  }

  /** @returns the cookie's (unsigned) value for a new session */
  open(): string {
    const session = { id: randomBytes(18).toString('base64url'), issuedAt: this.#now() }
    this.#open.set(session.id, session.issuedAt)
    if (this.#open.size > PREVIEW_SESSION_LIMIT) this.#open.delete(this.#open.keys().next().value!)
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
    if (this.#open.get(id) !== issuedAt) return null
    if (this.#now() - issuedAt >= this.#lifetimeMs) {
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
}
