/** `npm run fonts`: writes the font's two subsets to assets/fonts/ (a unit test fails while the committed ones differ). */
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
