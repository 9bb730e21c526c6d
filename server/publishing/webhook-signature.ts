/** Sanity's webhook signature with what `@sanity/webhook` leaves out: a constant-time compare, and a time window against replays. */
import { timingSafeEqual } from 'node:crypto'
import { decodeSignatureHeader, encodeSignatureHeader } from '@sanity/webhook'

/** Signatures older (or further in the future) than this are refused: 5 minutes. */
export const SIGNATURE_TOLERANCE_MS = 5 * 60_000

/**
 * @param rawBody the request body exactly as received (bytes, not re-encoded JSON)
 * @param header `sanity-webhook-signature: t=<ms>,v1=<base64url HMAC-SHA256 of "<t>.<raw body>">`
 * @param secrets the webhook's secret, then any others while a rotation settles: any of them holds
 * @returns ok with the signature, or why it was refused; never throws
 */
export async function checkSignature(
  rawBody: Buffer,
  header: string | undefined,
  secrets: readonly string[],
  now = Date.now(),
): Promise<{ ok: true; signature: string } | { ok: false; reason: string }> {
  if (!header) return { ok: false, reason: 'missing signature' }
  let decoded: ReturnType<typeof decodeSignatureHeader>
  try {
    decoded = decodeSignatureHeader(header)
  } catch {
    return { ok: false, reason: 'malformed signature header' }
  }
  const { timestamp, hashedPayload: given } = decoded
  if (!Number.isFinite(timestamp) || Math.abs(now - timestamp) > SIGNATURE_TOLERANCE_MS)
    return { ok: false, reason: 'signature timestamp outside the 5 minute window' }
  const a = Buffer.from(given)
  for (const secret of secrets) {
    const expected = await encodeSignatureHeader(rawBody.toString('utf8'), timestamp, secret).then(
      (signed) => Buffer.from(decodeSignatureHeader(signed).hashedPayload),
      () => null,
    )
    if (!expected) return { ok: false, reason: 'cannot sign this body' }
    if (a.length === expected.length && timingSafeEqual(a, expected)) return { ok: true, signature: given }
  }
  return { ok: false, reason: 'signature mismatch' }
}
