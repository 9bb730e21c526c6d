/** The publisher's secrets: how strong they must be, the keys derived from them, comparing a guess. */
import { createHash, hkdfSync, timingSafeEqual } from 'node:crypto'

/** The shortest secret the publisher starts with (a guess must cost more than a lifetime). */
export const MIN_SECRET_LENGTH = 32

/** @throws Error naming the variable `name` and how to make a good one, when `value` is too short */
export function assertStrongSecret(name: string, value: string): void {
  if (value.length < MIN_SECRET_LENGTH)
    throw new Error(
      `${name} is ${value.length} characters long; it needs at least ${MIN_SECRET_LENGTH}. ` +
        'Make one with: openssl rand -hex 32',
    )
}

/**
 * A key for one purpose (e.g. 'preview session cookie'), derived from a secret with HKDF-SHA256, so
 * that what it signs gives nothing of the secret. @returns 32 bytes, hex-encoded
 */
export function deriveKey(secret: string, purpose: string): string {
  return Buffer.from(hkdfSync('sha256', secret, 'elevate-local publisher', purpose, 32)).toString('hex')
}

/** The bearer token the operator's scripts send for full reports, derived from the webhook secret. */
export const operatorToken = (webhookSecret: string): string =>
  deriveKey(webhookSecret, 'publisher operator token')

/** The header the operator's scripts send to prove who they are (editor-access.ts). */
export const operatorHeaders = (webhookSecret: string) => ({
  authorization: `Bearer ${operatorToken(webhookSecret)}`,
})

/** Constant-time comparison of a guess with any of the accepted secrets (of any length: both are hashed). */
export function matchesSecret(given: string, secrets: readonly string[]): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest()
  const guess = digest(given)
  // Every secret compared, a match or not: the time tells nothing of which one matched.
  return secrets.reduce((match, secret) => timingSafeEqual(guess, digest(secret)) || match, false)
}
