/**
 * Who may read the publisher's full reports (a failed build's reasons, /healthz's errors):
 * editors and the operator, each by a proof the publisher can check. Everyone else gets
 * the short public answer. The proofs:
 * - an open preview session (the preview cookie: its holder knew the preview secret, or
 *   came in through the Studio's Preview tool);
 * - `Authorization: Bearer <token>`, where the token is either
 *   - the operator token, derived from SANITY_WEBHOOK_SECRET (`operatorToken`), which the
 *     operator's scripts (`publish:local`) send, or
 *   - a secret Sanity's Presentation tool makes (`@sanity/preview-url-secret`), which the
 *     Studio creates as the signed-in editor: creating one needs that editor's write access
 *     to the project's dataset, and the publisher checks it against the Content Lake with
 *     its read token. Anything built into the Studio's bundle is public and proves nothing;
 *     Fetch Metadata headers (`Sec-Fetch-Site`) are set by any script and prove nothing.
 * A wrong token counts as a wrong guess (guess-limit.ts); a checked Presentation secret is
 * remembered for a few minutes, so a polling badge costs one Content Lake query per editor
 * every few minutes, not one a poll.
 */
import { createHash } from 'node:crypto'
import type { SanityClient } from '@sanity/client'
import { urlSearchParamPreviewSecret, validatePreviewUrl } from '@sanity/preview-url-secret'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { GuessLimit } from './guess-limit.ts'
import { matchesSecret } from './secrets.ts'

/** How long a checked Presentation secret is trusted without asking the Content Lake again. */
export const CHECKED_SECRET_MS = 5 * 60_000

export type EditorAccessOptions = {
  /** Whether the request carries an open preview session (absent: preview is off). */
  hasPreviewSession?: (request: FastifyRequest) => boolean
  /** Operator tokens accepted (from the current and the previous webhook secret). */
  operatorTokens: readonly string[]
  /** Checks Presentation's secrets (a Content Lake project with a read token). */
  presentation?: SanityClient
  limit: GuessLimit
}

/** What a request proved: an editor, nobody in particular, or a wrong proof (answered). */
export type Access = 'editor' | 'anonymous' | 'answered'

/** The bearer token of a request, if it sends one. */
function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization
  const match = typeof header === 'string' ? /^Bearer\s+(\S{1,512})$/i.exec(header) : null
  return match?.[1]
}

/** See the module comment. */
export class EditorAccess {
  #options: EditorAccessOptions
  /** sha256 of a checked Presentation secret -> until when it is trusted. */
  #checked = new Map<string, number>()

  constructor(options: EditorAccessOptions) {
    this.#options = options
  }

  /**
   * Checks a request's proof. A wrong or unverifiable bearer token is answered here
   * (401, or 429 once the client made too many wrong guesses).
   * @returns 'editor', 'anonymous' (no proof given), or 'answered' (the caller stops)
   */
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
    const until = this.#checked.get(key)
    if (until !== undefined && until > Date.now()) return true
    try {
      const url = `/?${urlSearchParamPreviewSecret}=${encodeURIComponent(token)}`
      const { isValid } = await validatePreviewUrl(presentation, url)
      if (!isValid) return false
      this.#checked.set(key, Date.now() + CHECKED_SECRET_MS)
      if (this.#checked.size > 1000) this.#checked.delete(this.#checked.keys().next().value!)
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
