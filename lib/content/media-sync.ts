/**
 * The build's media step: every image asset the content uses, copied into
 * `public/media/` so that the exported site serves its own images and never calls
 * Sanity's CDN; a raster image as its resized WebP copies (sharp). What the copies are
 * called, and how pages point at them, is image.ts.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { isRasterAsset, MEDIA_URL_DIR, mediaFileName, rasterCopies } from './image.ts'
import type { ContentSource } from './source.ts'
import { assetFileOf, ContentError } from './build-rules.ts'

/** WebP quality of the copies (sharp, 1-100): photos of 1200 px stay well under 100 kB. */
export const RASTER_QUALITY = 75
/** An asset document as `mediaAssetsQuery` returns it. */
export type MediaAsset = {
  _id: string
  url: string | null
  originalFilename: string | null
  sha1hash: string | null
}

/**
 * Writes every asset into `<publicDir>/media/`, replacing what was there. An SVG or
 * GIF is written as it is; a raster image (`isRasterAsset`) as its WebP copies
 * (`rasterWidths`, `rasterFileName`) made by sharp, turned upright by its EXIF
 * orientation. Copies are kept in `cacheDir` by the asset's content hash, so a
 * rebuild after a text edit encodes nothing again.
 * Local source: copies `<dataset folder>/images/<originalFilename>`, checking its sha1.
 * Sanity source: downloads the asset's CDN `url` (build time only).
 * @param cacheDir where encoded copies are kept between builds (default `.cache/media`)
 * @returns the number of assets written
 * @throws Error naming the asset `_id` when its file is missing, does not match, or
 *   cannot be decoded as an image
 */
export async function syncMedia(
  assets: MediaAsset[],
  source: ContentSource,
  publicDir: string,
  cacheDir = path.resolve('.cache/media'),
): Promise<number> {
  const target = path.join(publicDir, MEDIA_URL_DIR)
  await rm(target, { recursive: true, force: true })
  await mkdir(target, { recursive: true })
  // Copies are named by content hash and width; the folder names how they were encoded.
  const encoded = path.join(cacheDir, `webp-q${RASTER_QUALITY}`)
  await mkdir(encoded, { recursive: true })
  const original = (asset: MediaAsset) =>
    source.kind === 'local' ? readLocalAsset(asset, source.file) : downloadAsset(asset)
  for (const asset of assets) {
    if (!isRasterAsset(asset._id)) {
      await writeFile(path.join(target, mediaFileName(asset._id)), await original(asset))
      continue
    }
    const copies = rasterCopies(asset._id)
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
    for (const [index, { name }] of copies.entries()) await writeFile(path.join(target, name), bytes[index]!)
  }
  return assets.length
}

/**
 * One WebP copy of `bytes` per width (sharp: EXIF orientation applied, never enlarged).
 * @throws Error naming `assetId` when sharp cannot decode the image
 */
async function resizeToWebp(bytes: Buffer, widths: number[], assetId: string): Promise<Buffer[]> {
  // Loaded here, not at the top: most builds resize nothing (every copy is in the cache).
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

async function readLocalAsset(asset: MediaAsset, datasetFile: string): Promise<Buffer> {
  return assetFileOf(asset, path.join(path.dirname(datasetFile), 'images'), (file) => readFile(file))
}

async function downloadAsset(asset: MediaAsset): Promise<Buffer> {
  if (!asset.url) throw new ContentError(asset._id, 'url', 'is missing')
  const response = await fetch(asset.url)
  if (!response.ok)
    throw new Error(`Could not download asset "${asset._id}" from ${asset.url}: HTTP ${response.status}`)
  return Buffer.from(await response.arrayBuffer())
}
