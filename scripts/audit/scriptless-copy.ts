/** The LCP baseline of Lighthouse's desktop preset with applied throttling: each page without its scripts (docs/speed.md, "Baselines"). */
import { cp, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { listFiles } from '../../lib/build-output.ts'
import { applyEdits, elementsOf } from '../../lib/html-elements.ts'

/** A complete HTML document without any `<script>` element (inline, external or JSON). */
export function withoutScripts(html: string): string {
  return applyEdits(
    html,
    elementsOf(html)
      .filter((element) => element.tagName === 'script' && element.sourceCodeLocation)
      .map(({ sourceCodeLocation }) => ({
        start: sourceCodeLocation!.startOffset,
        end: sourceCodeLocation!.endOffset,
      })),
  )
}

/** Copies a finalized export to `dest` (replaced) with every page's scripts removed and its brotli and gzip copies made anew. */
export async function writeScriptlessCopy(exportDir: string, dest: string): Promise<void> {
  await rm(dest, { recursive: true, force: true })
  await cp(exportDir, dest, { recursive: true })
  const pages = await listFiles(dest, { filter: (file) => file.endsWith('.html') })
  for (const page of pages) {
    const file = path.join(dest, page)
    const html = withoutScripts(await readFile(file, 'utf8'))
    await writeFile(file, html)
    await writeFile(`${file}.br`, brotliCompressSync(html))
    await writeFile(`${file}.gz`, gzipSync(html, { level: 9 }))
  }
}
