/**
 * Next writes a page whose route has percent-encoded characters under the encoded
 * name in some versions (`Osteopath%20Lancing.html`); a static host looks for the
 * decoded name once it has decoded the URL path. This step makes sure of it.
 */
import { readdir, rename } from 'node:fs/promises'
import path from 'node:path'

/**
 * Renames files and folders whose names are percent-encoded (`Osteopath%20Lancing.html`)
 * to the decoded name a host looks for once it has decoded the URL path.
 * @param root absolute path of the export
 * @returns the renamed paths, relative to root
 * @throws Error when a name decodes to one with a path separator
 */
export async function decodeFileNames(root: string): Promise<string[]> {
  const renamed: string[] = []
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  // Deepest first, so renaming a folder never invalidates a path still to visit.
  const sorted = entries.sort((a, b) => b.parentPath.length - a.parentPath.length)
  for (const entry of sorted) {
    let decoded: string
    try {
      decoded = decodeURIComponent(entry.name)
    } catch {
      continue
    }
    if (decoded === entry.name) continue
    if (decoded.includes('/') || decoded.includes('\\'))
      throw new Error(`${entry.name}: decodes to a name with a path separator`)
    await rename(path.join(entry.parentPath, entry.name), path.join(entry.parentPath, decoded))
    renamed.push(path.relative(root, path.join(entry.parentPath, decoded)))
  }
  return renamed
}
