/**
 * Writes the site font's core subset (scripts/fonts/core-subset.ts) to
 * assets/fonts/. Run after upgrading @fontsource-variable/plus-jakarta-sans or
 * changing the core characters, then commit the file; a unit test fails while
 * the committed file differs from what this makes.
 * Usage: npm run fonts
 */
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import {
  CORE_FONT,
  extendedCodepoints,
  formatUnicodeRange,
  makeCoreSubset,
  CORE_CODEPOINTS,
} from './fonts/core-subset.ts'

const root = process.cwd()
const font = await makeCoreSubset(root)
await writeFile(path.join(root, CORE_FONT), font)
console.log(`fonts: ${CORE_FONT}, ${font.length} bytes`)
console.log(`core unicode-range (app/fonts.ts, jakarta): ${formatUnicodeRange(CORE_CODEPOINTS)}`)
console.log(
  `extended unicode-range (app/fonts.ts, jakartaExtended): ${formatUnicodeRange(extendedCodepoints())}`,
)
