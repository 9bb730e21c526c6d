/**
 * Who may read the publisher's full reports: a preview session, the operator token, or a Presentation
 * secret the editor's Studio made (docs/publishing.md); a wrong token counts as a guess.
 */
import { createHash } from 'node:crypto'
import type { SanityClient } from '@sanity/client'
import { urlSearchParamPreviewSecret, validatePreviewUrl } from '@sanity/preview-url-secret'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { LRUCache } from 'lru-cache'
import type { GuessLimit } from './guess-limit.ts'
import { matchesSecret } from '../secrets.ts'

/** A polling badge then costs one Content Lake query per editor every few minutes. */
export const CHECKED_SECRET_MS = 5 * 60_000

export type EditorAccessOptions = {
  /** Absent: preview is off. */
  hasPreviewSession?: (request: FastifyRequest) => boolean
  /** From the current and the previous webhook secret. */
  operatorTokens: readonly string[]
  /** Has the read token that looks Presentation's secrets up. */
  presentation?: SanityClient
  limit: GuessLimit
}

/** 'answered': a wrong proof, already answered. */
export type Access = 'editor' | 'anonymous' | 'answered'

function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization
  const match = typeof header === 'string' ? /^Bearer\s+(\S{1,512})$/i.exec(header) : null
  return match?.[1]
}

export class EditorAccess {
  #options: EditorAccessOptions
  /** sha256 of the secrets checked in the last CHECKED_SECRET_MS. */
  #checked = new LRUCache<string, true>({ max: 1000, ttl: CHECKED_SECRET_MS })

  constructor(options: EditorAccessOptions) {
    this.#options = options
  }

  /** A wrong or unverifiable bearer token is answered here (401, or 429 after too many guesses). */
  async check(request: FastifyRequest, reply: FastifyReply): Promise<Access> {
    const token = bearerOf(request)
    if (token === undefined) return this.#options.hasPreviewSession?.(request) ? 'editor' : 'anonymous'
    if (this.#options.limit.refuseIfLocked(request, reply)) return 'answered'
    if (matchesSecret(token, this.#options.operatorTokens)) return 'editor'
    if (await this.#presentationSecret(request, token)) return 'editor'
    await this.#options.limit.wrongGuess(request, 'editor token')
    void reply
      .code(401)
      .header('Cache-Control', 'no-store')
      .send({ error: 'this token is not an editor’s: ask without it, or get a new one' })
    return 'answered'
  }

  async #presentationSecret(request: FastifyRequest, token: string): Promise<boolean> {
    const { presentation } = this.#options
    if (!presentation) return false
    const key = createHash('sha256').update(token).digest('base64url')
    if (this.#checked.has(key)) return true
    try {
      const url = `/?${urlSearchParamPreviewSecret}=${encodeURIComponent(token)}`
      const { isValid } = await validatePreviewUrl(presentation, url)
      if (!isValid) return false
      this.#checked.set(key, true)
      return true
    } catch (error) {
      request.log.error(
        { event: 'editor.unchecked', error: (error as Error).message },
        "could not check an editor's token with Sanity",
      )
      return false
    }
  }
}
