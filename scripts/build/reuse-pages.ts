/**
 * Takes pages from the live build into this build's export, byte for byte: the pages the
 * render plan kept (scripts/build/render-plan.ts), which Next did not render this time.
 * A page of a dynamic route is every file at its address: `<path>.html`, its RSC payload
 * `<path>.txt`, the file itself for a route handler (`/og/<card>.png`), and the folder of
 * its RSC segment files `<path>/…`, each with its `.br` and `.gz` copies.
 * Hard links, not copies: at 1,000 case studies a publish takes some 25,000 files (700 MB)
 * from the live build, and copying them took 5.6 s. A build's files are never written
 * again once it is done, and nothing after this step writes a taken file (the postbuild
 * rewrites only the pages Next rendered, and writes no compressed copy of a taken one):
 * a write into one would change the live build too, which tests/e2e/rebuilds.spec.ts
 * checks is left byte for byte as it was. Across filesystems the files are copied.
 */
import { constants } from 'node:fs'
import { copyFile, link, mkdir } from 'node:fs/promises'
import path from 'node:path'
import pMap from 'p-map'
import { listFiles } from '../../lib/build-output.ts'

/**
 * The address of one page of a dynamic route, as a path relative to the build.
 * @param route e.g. `/case-studies/[slug]`
 * @param unit the parameter's value, e.g. `osteopath-lancing`
 * @throws Error when the route has other than one parameter
 */
export function pagePath(route: string, unit: string): string {
  const parts = route.split(/\[[^\]]+\]/)
  if (parts.length !== 2) throw new Error(`route ${route} has other than one parameter`)
  return `${parts[0]}${unit}${parts[1]}`.replace(/^\//, '')
}

/** The page addresses a file of a build (relative path) could belong to (see the module comment). */
function pagesOf(file: string): string[] {
  const base = file.replace(/\.(br|gz)$/, '')
  const folders = file.split('/').slice(0, -1)
  return [
    base,
    base.replace(/\.(html|txt)$/, ''),
    ...folders.map((_, index) => folders.slice(0, index + 1).join('/')),
  ]
}

/**
 * Copies the reused pages' files from the live build into the export.
 * @param previousDir the live build
 * @param outDir this build's export (Next's render is done)
 * @param reuse route -> the pages to take
 * @returns the copied files, relative to the export, sorted
 * @throws Error when a reused page has no file in the live build, or Next rendered it too
 */
export async function reusePages(
  previousDir: string,
  outDir: string,
  reuse: Record<string, string[]>,
): Promise<string[]> {
  const pages = Object.entries(reuse).flatMap(([route, units]) => units.map((unit) => pagePath(route, unit)))
  if (!pages.length) return []
  const wanted = new Set(pages)
  const files = await listFiles(previousDir)
  const copied: string[] = []
  const found = new Set<string>()
  const taken = files.flatMap((file) => {
    const page = pagesOf(file).find((candidate) => wanted.has(candidate))
    if (!page) return []
    found.add(page)
    return [file]
  })
  // Thousands of small files: many in flight at once, not one after another.
  await pMap(
    taken,
    async (file) => {
      const [source, target] = [path.join(previousDir, file), path.join(outDir, file)]
      await mkdir(path.dirname(target), { recursive: true })
      // A file Next rendered too is an error, never overwritten (link and COPYFILE_EXCL fail).
      await link(source, target)
        .catch((error: NodeJS.ErrnoException) => {
          if (!['EXDEV', 'EPERM', 'ENOTSUP', 'EMLINK'].includes(error.code ?? '')) throw error
          return copyFile(source, target, constants.COPYFILE_FICLONE | constants.COPYFILE_EXCL)
        })
        .catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'EEXIST')
            throw new Error(`${file} was rendered, yet the plan takes it from the live build`)
          throw error
        })
      copied.push(file)
    },
    { concurrency: 32 },
  )
  const missing = pages.filter((page) => !found.has(page))
  if (missing.length) throw new Error(`the live build has no files for ${missing.slice(0, 3).join(', ')}`)
  return copied.sort()
}
