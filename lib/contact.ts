/** The contact form's payload (spec §3): the first four are required (spec §5). */
export type ContactPayload = {
  firstName: string
  lastName: string
  email: string
  phone: string
  website: string
  automation: string
}

/** Field names in payload order. */
export const CONTACT_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'website', 'automation'] as const

/**
 * The honeypot: a field people never see or reach (off-screen, out of the tab
 * order, hidden from assistive technology) that form-filling bots do fill in.
 * Named after a field bots like, but one browsers' autofill leaves alone
 * (Chrome autofills "company" even with autocomplete="off"; it no longer
 * recognises "fax"). Never part of the payload.
 */
export const HONEYPOT_FIELD = 'fax'

/**
 * Whether a submission filled the honeypot (then it comes from a bot: drop it
 * silently, answering as if it had been sent).
 * @param data the form's FormData, or a parsed JSON/form-encoded body
 */
export function honeypotFilled(data: FormData | unknown): boolean {
  const value =
    data instanceof FormData
      ? data.get(HONEYPOT_FIELD)
      : data && typeof data === 'object' && !Array.isArray(data)
        ? (data as Record<string, unknown>)[HONEYPOT_FIELD]
        : undefined
  if (value === undefined || value === null) return false
  return typeof value === 'string' ? value.trim() !== '' : true
}

/**
 * Reads the payload from the contact form's fields (missing fields become '').
 * @param data the form's FormData
 */
export function contactPayload(data: FormData): ContactPayload {
  return Object.fromEntries(
    CONTACT_FIELDS.map((name) => [name, String(data.get(name) ?? '').trim()]),
  ) as ContactPayload
}

/**
 * POSTs the payload as JSON to the automation webhook (spec §7).
 * Success is judged only by an OK status; the body is not read.
 * @param webhookUrl site settings' contact webhook (https, or a path on this site)
 * @returns true on a 2xx answer; false on any other status or a network error (never throws)
 */
export async function sendContact(
  webhookUrl: string,
  payload: ContactPayload,
  fetchImpl: typeof fetch = fetch,
): Promise<boolean> {
  try {
    const response = await fetchImpl(webhookUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(payload),
    })
    return response.ok
  } catch {
    return false
  }
}
