/** Length of a case study card's issue preview, in characters (spec §9). */
export const PREVIEW_LENGTH = 120

/**
 * The first `length` characters of `text` followed by an ellipsis (spec §2, §9:
 * card preview of the issue is 120 characters plus ellipsis). Counts Unicode
 * code points, so an emoji or accented letter is never cut in half. It counts stega's
 * invisible characters too: give it clean text (lib/seo.ts `metaDescription` cleans first;
 * CaseStudyCard cuts the clean text and puts the edit link back after the cut).
 * @returns the whole text when it is not longer than `length`
 */
export function excerpt(text: string, length = PREVIEW_LENGTH): string {
  const characters = Array.from(text.trim())
  if (characters.length <= length) return characters.join('')
  return `${characters.slice(0, length).join('').trimEnd()}…`
}

/**
 * The host a portfolio card shows for a site's address, without `www.` (spec §2 /sites).
 * @example siteHost('https://www.kingswaybarbers.co.uk/') === 'kingswaybarbers.co.uk'
 * @throws TypeError when `url` is not an absolute URL (the schema's rule makes it one)
 */
export function siteHost(url: string): string {
  return new URL(url).host.replace(/^www\./, '')
}

/**
 * A `tel:` link for a phone number as people write it. Only digits and '+' are kept, so
 * stega's invisible characters never reach the href (callers clean the number anyway).
 * @example telHref('+44 20 7946 0321') === 'tel:+442079460321'
 */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^+\d]/g, '')}`
}

/**
 * JSON to put inside an inline `<script>` (JSON-LD, a list for a loader): `<` is
 * written as `\u003c`, so no string in the data can close the script element early.
 * It writes what it is given, stega included: components/seo/JsonLd.tsx cleans first.
 * @param data anything JSON.stringify accepts
 */
export function scriptSafeJson(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c')
}
