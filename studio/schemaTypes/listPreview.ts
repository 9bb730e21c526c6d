/** Subtitles of the Studio's document lists (`preview.prepare`). */

/** A text's start for a subtitle: whitespace collapsed, cut at a word and ended with '…' past `max` characters (ellipsis included). */
export function excerpt(text: unknown, max = 60): string {
  const flat = typeof text === 'string' ? text.replace(/\s+/g, ' ').trim() : ''
  if (flat.length <= max) return flat
  const cut = flat.slice(0, max - 1)
  const lastSpace = cut.lastIndexOf(' ')
  return `${(lastSpace > max / 2 ? cut.slice(0, lastSpace) : cut).replace(/[\s,.;:]+$/, '')}…`
}

/** The non-empty parts joined with ' · ' (e.g. 'Barber & Co · 5 stars'). */
export function joinParts(...parts: unknown[]): string {
  return parts
    .filter(
      (part): part is string | number =>
        typeof part === 'number' || (typeof part === 'string' && part !== ''),
    )
    .map(String)
    .join(' · ')
}
