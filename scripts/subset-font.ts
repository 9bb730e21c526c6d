/**
 * Writes the site font's two subsets, core and extended (scripts/fonts/subsets.ts),
 * to assets/fonts/. Run after upgrading @fontsource-variable/plus-jakarta-sans or
 * changing the core characters, then commit the files; a unit test fails while
 * a committed file differs from what this makes.
 * Usage: npm run fonts
 */
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import {
  CORE_CODEPOINTS,
  extendedCodepoints,
  formatUnicodeRange,
  makeSubset,
  SUBSETS,
} from './fonts/subsets.ts'

const root = process.cwd()
for (const subset of SUBSETS) {
  const font = await makeSubset(root, subset.codepoints())
  await writeFile(path.join(root, subset.file), font)
  console.log(`fonts: ${subset.file}, ${font.length} bytes`)
}
console.log(`core unicode-range (app/fonts.ts, jakarta): ${formatUnicodeRange(CORE_CODEPOINTS)}`)
console.log(
  `extended unicode-range (app/fonts.ts, jakartaExtended): ${formatUnicodeRange(extendedCodepoints())}`,
)
