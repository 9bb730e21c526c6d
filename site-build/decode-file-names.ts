/** Renames the percent-encoded file names some Next versions write to the decoded names a static host looks for. */
import { rename } from 'node:fs/promises'
import path from 'node:path'
import { listFiles } from '../lib/build-output.ts'

const folderEnd = (entry: string) => entry.lastIndexOf('/')

/** Renames the export's percent-encoded files and folders; returns them relative to root; throws on a decoded `/` or `\`. */
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
