/** Text helpers for pages. */

/** Length of a case study card's issue preview, in characters (spec §9). */
export const PREVIEW_LENGTH = 120

/** The first `length` code points of `text` and an ellipsis (spec §2, §9); give it text clean of stega. */
export function excerpt(text: string, length = PREVIEW_LENGTH): string {
  const characters = Array.from(text.trim())
  if (characters.length <= length) return characters.join('')
  return `${characters.slice(0, length).join('').trimEnd()}…`
}

/** The host a portfolio card shows, without `www.` (spec §2 /sites). @throws TypeError for a relative URL */
export function siteHost(url: string): string {
  return new URL(url).host.replace(/^www\./, '')
}

/** A `tel:` link keeping only digits and '+', e.g. `telHref('+44 20 7946 0321') === 'tel:+442079460321'`. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^+\d]/g, '')}`
}

/** JSON for an inline `<script>`: `<` as `\u003c`, so no string can close it early (stega is not cleaned here). */
export function scriptSafeJson(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c')
}
