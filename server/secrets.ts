/**
 * The publisher's secrets: how strong they must be, the keys derived from them, and
 * comparing a guess with one. A secret is never used as a key directly: each use gets a
 * key of its own (HKDF), so a cookie signature or a token gives nothing of the secret.
 */
import { createHash, hkdfSync, timingSafeEqual } from 'node:crypto'

/** The shortest secret the publisher starts with (a guess must cost more than a lifetime). */
export const MIN_SECRET_LENGTH = 32

/**
 * @param name the environment variable, for the message
 * @param value its value
 * @throws Error naming the variable and how to make a good one, when the value is shorter
 *   than MIN_SECRET_LENGTH characters
 */
export function assertStrongSecret(name: string, value: string): void {
  if (value.length < MIN_SECRET_LENGTH)
    throw new Error(
      `${name} is ${value.length} characters long; it needs at least ${MIN_SECRET_LENGTH}. ` +
        'Make one with: openssl rand -hex 32',
    )
}

/**
 * A key for one purpose, derived from a secret (HKDF-SHA256).
 * @param secret e.g. SANITY_PREVIEW_SECRET
 * @param purpose what the key is for, e.g. 'preview session cookie'
 * @returns 32 bytes, hex-encoded
 */
export function deriveKey(secret: string, purpose: string): string {
  return Buffer.from(hkdfSync('sha256', secret, 'elevate-local publisher', purpose, 32)).toString('hex')
}

/**
 * The bearer token the operator's own scripts (`publish:local`, the benchmarks) send to
 * read the publisher's full reports: derived from SANITY_WEBHOOK_SECRET, which they sign
 * webhooks with, so they need no other setting.
 */
export const operatorToken = (webhookSecret: string): string =>
  deriveKey(webhookSecret, 'publisher operator token')

/** The header the operator's scripts send to prove who they are (editor-access.ts). */
export const operatorHeaders = (webhookSecret: string): { authorization: string } => ({
  authorization: `Bearer ${operatorToken(webhookSecret)}`,
})

/**
 * Constant-time comparison of a guess with any of the accepted secrets (lengths differ
 * freely: both sides are hashed first).
 */
export function matchesSecret(given: string, secrets: readonly string[]): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest()
  const guess = digest(given)
  let match = false
  for (const secret of secrets) match = timingSafeEqual(guess, digest(secret)) || match
  return match
}
