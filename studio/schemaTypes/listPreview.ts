/**
 * Helpers for the list previews of documents in the Studio (`preview.prepare` of a schema
 * type: the title and subtitle of a row), not the draft preview of pages:
 * plain functions of the selected values, so tests can call them directly.
 */

/**
 * The start of a longer text for a list subtitle: whitespace collapsed, cut at a
 * word boundary and ended with '…' when longer than `max` characters.
 * @param text e.g. an FAQ answer; missing text gives ''
 * @param max the longest result, ellipsis included (default 60)
 */
export function excerpt(text: unknown, max = 60): string {
  const flat = typeof text === 'string' ? text.replace(/\s+/g, ' ').trim() : ''
  if (flat.length <= max) return flat
  const cut = flat.slice(0, max - 1)
  const lastSpace = cut.lastIndexOf(' ')
  return `${(lastSpace > max / 2 ? cut.slice(0, lastSpace) : cut).replace(/[\s,.;:]+$/, '')}…`
}

/**
 * Joins the non-empty parts of a subtitle with ' · ' (e.g. 'Barber & Co · 5 stars').
 * @returns '' when every part is empty
 */
export function joinParts(...parts: unknown[]): string {
  return parts
    .filter(
      (part): part is string | number =>
        typeof part === 'number' || (typeof part === 'string' && part !== ''),
    )
    .map(String)
    .join(' · ')
}
