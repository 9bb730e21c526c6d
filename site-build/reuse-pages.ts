/** Takes the pages the render plan kept from the live build into this export, as hard links (copies across filesystems). */
import { constants } from 'node:fs'
import { copyFile, link, mkdir } from 'node:fs/promises'
import path from 'node:path'
import pMap from 'p-map'
import { listFiles } from '../lib/build-output.ts'

/**
 * One page's path relative to the build, e.g. (`/case-studies/[slug]`, `a`) -> `case-studies/a`.
 * @throws Error when the route has other than one parameter
 */
export function pagePath(route: string, unit: string): string {
  const parts = route.split(/\[[^\]]+\]/)
  if (parts.length !== 2) throw new Error(`route ${route} has other than one parameter`)
  return `${parts[0]}${unit}${parts[1]}`.replace(/^\//, '')
}

/** The pages a file could belong to: `<page>.html`, `.txt`, a route handler's file, `<page>/…`, each with `.br`/`.gz`. */
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
 * Links the `reuse` pages' files (route -> units) from `previousDir` into `outDir`.
 * @returns the files taken, relative to the export, sorted
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
