/** The contact form's payload (spec §3): the first four are required (spec §5). */
export type ContactPayload = {
  firstName: string
  lastName: string
  email: string
  phone: string
  website: string
  automation: string
}

export const CONTACT_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'website', 'automation'] as const

/** The honeypot field that bots fill and people never see; a name browsers' autofill leaves alone (not "company"). */
export const HONEYPOT_FIELD = 'fax'

/** Whether a submission (FormData or a parsed body) filled the honeypot: a bot's, dropped as if sent. */
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

/** Reads the payload from the contact form's fields (missing fields become ''). */
export function contactPayload(data: FormData): ContactPayload {
  return Object.fromEntries(
    CONTACT_FIELDS.map((name) => [name, String(data.get(name) ?? '').trim()]),
  ) as ContactPayload
}

/**
 * POSTs the payload as JSON to the automation webhook (spec §7): true on a 2xx answer, false on
 * any other status or a network error (never throws).
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
