/**
 * Next writes a page whose route has percent-encoded characters under the encoded
 * name in some versions (`Osteopath%20Lancing.html`); a static host looks for the
 * decoded name once it has decoded the URL path. This step makes sure of it.
 */
import { rename } from 'node:fs/promises'
import path from 'node:path'
import { listFiles } from '../lib/build-output.ts'

/** How deep a listed path lies: where its folder's part ends (-1 at the root). */
const folderEnd = (entry: string) => entry.lastIndexOf('/')

/**
 * Renames files and folders whose names are percent-encoded (`Osteopath%20Lancing.html`)
 * to the decoded name a host looks for once it has decoded the URL path.
 * @param root absolute path of the export
 * @returns the renamed paths, relative to root
 * @throws Error when a name decodes to one with a path separator
 */
export async function decodeFileNames(root: string): Promise<string[]> {
  const renamed: string[] = []
  const entries = await listFiles(root, { everyEntry: true })
  // Deepest first, so renaming a folder never invalidates a path still to visit.
  const sorted = entries.sort((a, b) => folderEnd(b) - folderEnd(a))
  for (const entry of sorted) {
    const folder = entry.slice(0, folderEnd(entry) + 1)
    const name = entry.slice(folder.length)
    let decoded: string
    try {
      decoded = decodeURIComponent(name)
    } catch {
      continue
    }
    if (decoded === name) continue
    if (decoded.includes('/') || decoded.includes('\\'))
      throw new Error(`${name}: decodes to a name with a path separator`)
    await rename(path.join(root, entry), path.join(root, folder, decoded))
    renamed.push(path.relative(root, path.join(root, folder, decoded)))
  }
  return renamed
}
