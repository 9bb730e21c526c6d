/** The build's media step: every image asset the content uses, copied into `public/media/` (docs/content.md, "Images"). */
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { isRasterAsset, MEDIA_URL_DIR, mediaFileName, RASTER_QUALITY, rasterCopies } from './image.ts'
import type { ContentSource } from './source.ts'
import { assetFileOf, ContentError } from './build-rules.ts'
import { sanitiserVersion, sanitiseSvg } from './svg-sanitiser.ts'

export type MediaAsset = {
  _id: string
  url: string | null
  originalFilename: string | null
  sha1hash: string | null
}

/** `replace` (the site build) leaves exactly the content's images; `add` (the preview's build, beside a publish) removes nothing. */
export type MediaSyncMode = 'replace' | 'add'

/**
 * Writes every asset into `<publicDir>/media/`: a raster image as WebP copies, an SVG cleaned, a GIF
 * as it is, kept in `cacheDir` by content hash. @throws Error naming the asset `_id` of a bad file
 */
export async function syncMedia(
  assets: MediaAsset[],
  source: ContentSource,
  publicDir: string,
  cacheDir = path.resolve('.cache/media'),
  mode: MediaSyncMode = 'replace',
): Promise<number> {
  const target = path.join(publicDir, MEDIA_URL_DIR)
  if (mode === 'replace') await rm(target, { recursive: true, force: true })
  await mkdir(target, { recursive: true })
  // Copies are named by content hash and width; the folder names how they were encoded.
  const encoded = path.join(cacheDir, `webp-q${RASTER_QUALITY}`)
  await mkdir(encoded, { recursive: true })
  const original = (asset: MediaAsset) =>
    source.kind === 'local' ? readLocalAsset(asset, source.file) : downloadAsset(asset)
  const write =
    mode === 'replace'
      ? (name: string, bytes: Buffer) => writeFile(path.join(target, name), bytes)
      : (name: string, bytes: Buffer) => writeWhole(path.join(target, name), bytes, cacheDir)
  const exists = (file: string) =>
    access(file).then(
      () => true,
      () => false,
    )
  const present = async (name: string) => mode === 'add' && (await exists(path.join(target, name)))
  let cleanedDir: string | undefined
  const cleanedSvg = async (asset: MediaAsset, name: string): Promise<Buffer> => {
    cleanedDir ??= path.join(cacheDir, `svg-${await sanitiserVersion()}`)
    const kept = await readFile(path.join(cleanedDir, name)).catch(() => null)
    if (kept) return kept
    const cleaned = await sanitiseSvg(await original(asset), asset._id)
    await mkdir(cleanedDir, { recursive: true })
    await writeWhole(path.join(cleanedDir, name), cleaned, cacheDir)
    return cleaned
  }
  for (const asset of assets) {
    const name = mediaFileName(asset._id)
    const extension = path.extname(name).slice(1)
    if (extension === 'svg') {
      const cleaned = await cleanedSvg(asset, name)
      // A drawing an older build wrote as uploaded has the same name: only the cleaned one stays.
      const same =
        mode === 'add' && (await readFile(path.join(target, name)).catch(() => null))?.equals(cleaned)
      if (!same) await write(name, cleaned)
      continue
    }
    if (extension === 'gif') {
      if (!(await present(name))) await write(name, await checkedGif(await original(asset), asset._id))
      continue
    }
    if (!isRasterAsset(asset._id))
      throw new ContentError(
        asset._id,
        '_id',
        `names a .${extension} file: the site serves photos (resized to WebP), GIFs and SVGs (cleaned) only`,
      )
    const copies = rasterCopies(asset._id)
    const missing = []
    for (const copy of copies) if (!(await present(copy.name))) missing.push(copy)
    if (missing.length === 0) continue
    const cached = await Promise.all(
      copies.map(({ name }) => readFile(path.join(encoded, name)).catch(() => null)),
    )
    let bytes: Buffer[]
    if (cached.every(Boolean)) bytes = cached as Buffer[]
    else {
      bytes = await resizeToWebp(
        await original(asset),
        copies.map(({ width }) => width),
        asset._id,
      )
      for (const [index, { name }] of copies.entries())
        await writeFile(path.join(encoded, name), bytes[index]!)
    }
    for (const [index, { name }] of copies.entries())
      if (missing.some((copy) => copy.name === name)) await write(name, bytes[index]!)
  }
  return assets.length
}

/** A GIF's bytes, once sharp reads them as a GIF (it is served as uploaded). @throws Error naming `assetId` */
async function checkedGif(bytes: Buffer, assetId: string): Promise<Buffer> {
  const { default: sharp } = await import('sharp')
  const format = await sharp(bytes)
    .metadata()
    .then(
      (metadata) => metadata.format,
      () => undefined,
    )
  if (format !== 'gif')
    throw new Error(`Invalid content: document "${assetId}": the image cannot be read as a GIF`)
  return bytes
}

/** Writes a file whole in `stagingDir`, then renames it into place (never a temporary name inside public/). */
async function writeWhole(file: string, bytes: Buffer, stagingDir: string): Promise<void> {
  const partial = path.join(stagingDir, `${path.basename(file)}.${process.pid}.partial`)
  await writeFile(partial, bytes)
  await rename(partial, file)
}

/** One WebP copy per width, upright, never enlarged. @throws Error naming `assetId` when sharp cannot decode it */
async function resizeToWebp(bytes: Buffer, widths: number[], assetId: string): Promise<Buffer[]> {
  // Loaded here: most builds resize nothing (every copy is in the cache).
  const { default: sharp } = await import('sharp')
  try {
    const upright = sharp(bytes, { failOn: 'error' }).rotate()
    return await Promise.all(
      widths.map((width) =>
        upright
          .clone()
          .resize({ width, withoutEnlargement: true })
          .webp({ quality: RASTER_QUALITY })
          .toBuffer(),
      ),
    )
  } catch (error) {
    throw new Error(
      `Invalid content: document "${assetId}": the image cannot be read (${(error as Error).message})`,
    )
  }
}

const readLocalAsset = (asset: MediaAsset, datasetFile: string): Promise<Buffer> =>
  assetFileOf(asset, path.join(path.dirname(datasetFile), 'images'), (file) => readFile(file))

async function downloadAsset(asset: MediaAsset): Promise<Buffer> {
  if (!asset.url) throw new ContentError(asset._id, 'url', 'is missing')
  const response = await fetch(asset.url)
  if (!response.ok)
    throw new Error(`Could not download asset "${asset._id}" from ${asset.url}: HTTP ${response.status}`)
  return Buffer.from(await response.arrayBuffer())
}
