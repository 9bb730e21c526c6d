/** The site font's two subsets, a preloaded core and the rest of latin (docs/speed.md, "The web font"). */
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import subsetFont from 'subset-font'

export const FONT_SOURCE =
  'node_modules/@fontsource-variable/plus-jakarta-sans/files/plus-jakarta-sans-latin-wght-normal.woff2'
export const CORE_FONT = 'assets/fonts/plus-jakarta-sans-core.woff2'
export const EXTENDED_FONT = 'assets/fonts/plus-jakarta-sans-extended.woff2'
/** The weights the site's CSS uses. */
export const WEIGHT_AXIS = { min: 400, max: 800 } as const

/** Printable ASCII, no-break space, figure space (the splash counter pads with it) and the punctuation and symbols of English copy. */
export const CORE_CODEPOINTS: readonly number[] = [
  ...Array.from({ length: 0x7e - 0x20 + 1 }, (_, index) => 0x20 + index),
  ...[...'\u00a0\u2007£©®°·×‘’“”–—•…€™'].map((char) => char.codePointAt(0)!),
].sort((a, b) => a - b)

/** The package's latin subset (its unicode.json), which the second face covers minus the core. */
export const LATIN_RANGE =
  'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD'

/**
 * The code points of a CSS `unicode-range` value (e.g. 'U+0000-00FF, U+0131'), ascending, unique.
 * @throws Error on a token that is not `U+hex` or `U+hex-hex`
 */
export function parseUnicodeRange(range: string): number[] {
  const points = new Set<number>()
  for (const token of range.split(',').map((part) => part.trim())) {
    const match = /^U\+([0-9A-F]{1,6})(?:-([0-9A-F]{1,6}))?$/i.exec(token)
    if (!match) throw new Error(`parseUnicodeRange: not a unicode-range token: '${token}'`)
    const start = parseInt(match[1]!, 16)
    const end = match[2] ? parseInt(match[2], 16) : start
    for (let point = start; point <= end; point++) points.add(point)
  }
  return [...points].sort((a, b) => a - b)
}

/** Code points (any order) as a CSS `unicode-range` value with runs merged, e.g. 'U+20-7E, U+A0'. */
export function formatUnicodeRange(points: readonly number[]): string {
  const sorted = [...new Set(points)].sort((a, b) => a - b)
  const runs: string[] = []
  for (let index = 0; index < sorted.length;) {
    let end = index
    while (end + 1 < sorted.length && sorted[end + 1] === sorted[end]! + 1) end++
    const hex = (point: number) => point.toString(16).toUpperCase()
    runs.push(end === index ? `U+${hex(sorted[index]!)}` : `U+${hex(sorted[index]!)}-${hex(sorted[end]!)}`)
    index = end + 1
  }
  return runs.join(', ')
}

/** The second face's range: the package's latin subset minus the core. */
export function extendedCodepoints(): number[] {
  const core = new Set(CORE_CODEPOINTS)
  return parseUnicodeRange(LATIN_RANGE).filter((point) => !core.has(point))
}

/** One WOFF2 subset of the package's latin file: these code points, WEIGHT_AXIS; deterministic. */
export async function makeSubset(root: string, codepoints: readonly number[]): Promise<Buffer> {
  const source = await readFile(path.join(root, FONT_SOURCE))
  const text = String.fromCodePoint(...codepoints)
  return subsetFont(source, text, { targetFormat: 'woff2', variationAxes: { wght: { ...WEIGHT_AXIS } } })
}

export const SUBSETS = [
  { file: CORE_FONT, codepoints: () => [...CORE_CODEPOINTS] },
  { file: EXTENDED_FONT, codepoints: extendedCodepoints },
] as const
