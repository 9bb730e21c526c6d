/**
 * Verifies Sanity's webhook signature with what `@sanity/webhook` leaves out: a constant-time
 * comparison and a timestamp tolerance, so a captured request cannot be replayed later.
 */
import { timingSafeEqual } from 'node:crypto'
import { decodeSignatureHeader, encodeSignatureHeader } from '@sanity/webhook'

/** Signatures older (or further in the future) than this are refused: 5 minutes. */
export const SIGNATURE_TOLERANCE_MS = 5 * 60_000

export type SignatureCheck =
  { ok: true; timestamp: number; signature: string } | { ok: false; reason: string }

/**
 * @param rawBody the request body exactly as received (bytes, not re-encoded JSON)
 * @param header `sanity-webhook-signature: t=<ms>,v1=<base64url HMAC-SHA256 of "<t>.<raw body>">`
 * @param secrets the webhook's secret, or several while a rotation settles: any of them holds
 * @returns ok with the signed timestamp and signature, or why it was refused; never throws
 */
export async function checkSignature(
  rawBody: Buffer,
  header: string | undefined,
  secrets: string | readonly string[],
  now = Date.now(),
  toleranceMs = SIGNATURE_TOLERANCE_MS,
): Promise<SignatureCheck> {
  if (!header) return { ok: false, reason: 'missing signature' }
  let timestamp: number
  let given: string
  try {
    ;({ timestamp, hashedPayload: given } = decodeSignatureHeader(header))
  } catch {
    return { ok: false, reason: 'malformed signature header' }
  }
  if (!Number.isFinite(timestamp) || Math.abs(now - timestamp) > toleranceMs)
    return { ok: false, reason: 'signature timestamp outside the 5 minute window' }
  const a = Buffer.from(given)
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    let expected: string
    try {
      expected = decodeSignatureHeader(
        await encodeSignatureHeader(rawBody.toString('utf8'), timestamp, secret),
      ).hashedPayload
    } catch {
      return { ok: false, reason: 'cannot sign this body' }
    }
    const b = Buffer.from(expected)
    if (a.length === b.length && timingSafeEqual(a, b)) return { ok: true, timestamp, signature: given }
  }
  return { ok: false, reason: 'signature mismatch' }
}
