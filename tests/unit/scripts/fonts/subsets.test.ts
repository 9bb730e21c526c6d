/** @jest-environment node */
/**
 * The site font's two faces (app/fonts.ts, scripts/fonts/subsets.ts): the
 * committed core subset is exactly what `npm run fonts` makes, and the
 * unicode-range literals in app/fonts.ts split the package's latin subset into
 * the core and the rest, with nothing lost and nothing covered twice.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import {
  CORE_CODEPOINTS,
  CORE_FONT,
  LATIN_RANGE,
  SUBSETS,
  extendedCodepoints,
  formatUnicodeRange,
  makeSubset,
  parseUnicodeRange,
} from '@/scripts/fonts/subsets'

const root = path.resolve(__dirname, '../../../..')
const fontsSource = readFileSync(path.join(root, 'app/fonts.ts'), 'utf8')

/** The unicode-range literal of the localFont call exported as `name` in app/fonts.ts. */
function rangeOf(name: string): number[] {
  const call = fontsSource.slice(fontsSource.indexOf(`export const ${name} =`))
  const value = /prop: 'unicode-range',\s*value:\s*'([^']+)'/.exec(call)?.[1]
  if (!value) throw new Error(`no unicode-range for ${name} in app/fonts.ts`)
  return parseUnicodeRange(value)
}

test('unicode-range parsing and formatting round-trip, merging runs', () => {
  expect(parseUnicodeRange('U+20-22, U+A0,U+2013-2014')).toEqual([0x20, 0x21, 0x22, 0xa0, 0x2013, 0x2014])
  expect(formatUnicodeRange([0x2014, 0x20, 0x21, 0x22, 0xa0, 0x2013, 0x20])).toBe(
    'U+20-22, U+A0, U+2013-2014',
  )
  expect(() => parseUnicodeRange('U+4??')).toThrow(/U\+4\?\?/)
})

test('the core face covers printable ASCII and English punctuation', () => {
  expect(rangeOf('jakarta')).toEqual([...CORE_CODEPOINTS])
  for (const char of 'Aa0 £€’“”–—…') expect(CORE_CODEPOINTS).toContain(char.codePointAt(0))
  expect(CORE_CODEPOINTS).not.toContain('é'.codePointAt(0))
})

test("the extended face covers the rest of the package's latin subset, the two without overlap", () => {
  const core = rangeOf('jakarta')
  const extended = rangeOf('jakartaExtended')
  expect(extended).toEqual(extendedCodepoints())
  expect(extended).toContain('é'.codePointAt(0))
  expect(extended.filter((point) => core.includes(point))).toEqual([])
  expect([...core, ...extended].sort((a, b) => a - b)).toEqual(parseUnicodeRange(LATIN_RANGE))
})

test.each(SUBSETS.map((subset) => [subset.file, subset]))(
  '%s is what `npm run fonts` makes',
  async (_file, subset) => {
    const committed = readFileSync(path.join(root, subset.file))
    const fresh = await makeSubset(root, subset.codepoints())
    expect(fresh.equals(committed)).toBe(true)
  },
)

test('the preloaded core fits one TCP initial window (10 x 1460 bytes)', () => {
  expect(readFileSync(path.join(root, CORE_FONT)).length).toBeLessThan(14_600)
})
