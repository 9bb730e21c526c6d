/**
 * Content images. Every image the site shows is a `sanity.imageAsset` document;
 * the build copies each referenced asset into `public/media/` so that the
 * exported site serves its own images and never calls Sanity's CDN.
 */
import { createHash } from 'node:crypto'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { ContentSource } from './source.ts'

/** An image as components take it: a same-origin path, intrinsic size in px, alt text. */
export type ContentImage = { src: string; width: number; height: number; alt: string }

/** The URL folder (and the folder under `public/`) that holds content images. */
export const MEDIA_URL_DIR = '/media'

/**
 * File name of an asset, from its Sanity `_id` (`image-<sha1>-<w>x<h>-<ext>`),
 * in the naming of Sanity's CDN: `<sha1>-<w>x<h>.<ext>`.
 * @throws Error when the id is not an image asset id
 */
export function mediaFileName(assetId: string): string {
  const match = /^image-([a-zA-Z0-9]+)-(\d+x\d+)-([a-z0-9]+)$/.exec(assetId)
  if (!match) throw new Error(`Invalid content: "${assetId}" is not a Sanity image asset id`)
  return `${match[1]}-${match[2]}.${match[3]}`
}

type ProjectedImage = {
  alt: string
  asset: { _id: string; metadata: { dimensions: { width: number; height: number } | null } | null } | null
} | null

/**
 * Turns a validated image projection into what components take.
 * @param image the `image{alt, asset->{...}}` projection (already checked by `validate.image`)
 */
export function toContentImage(image: ProjectedImage): ContentImage {
  const dimensions = image?.asset?.metadata?.dimensions
  if (!image?.asset || !dimensions) throw new Error('toContentImage: image was not validated')
  return {
    src: `${MEDIA_URL_DIR}/${mediaFileName(image.asset._id)}`,
    width: dimensions.width,
    height: dimensions.height,
    alt: image.alt,
  }
}

/** An asset document as `mediaAssetsQuery` returns it. */
export type MediaAsset = {
  _id: string
  url: string | null
  originalFilename: string | null
  sha1hash: string | null
}

/**
 * Writes every asset into `<publicDir>/media/`, replacing what was there.
 * Local source: copies `<dataset folder>/images/<originalFilename>`, checking its sha1.
 * Sanity source: downloads the asset's CDN `url` (build time only).
 * @returns the number of files written
 * @throws Error naming the asset `_id` when its file is missing or does not match
 */
export async function syncMedia(
  assets: MediaAsset[],
  source: ContentSource,
  publicDir: string,
): Promise<number> {
  const target = path.join(publicDir, MEDIA_URL_DIR)
  await rm(target, { recursive: true, force: true })
  await mkdir(target, { recursive: true })
  for (const asset of assets) {
    const bytes =
      source.kind === 'local' ? await readLocalAsset(asset, source.file) : await downloadAsset(asset)
    await writeFile(path.join(target, mediaFileName(asset._id)), bytes)
  }
  return assets.length
}

async function readLocalAsset(asset: MediaAsset, datasetFile: string): Promise<Buffer> {
  if (!asset.originalFilename)
    throw new Error(`Invalid content: document "${asset._id}", field "originalFilename": is missing`)
  const file = path.join(path.dirname(datasetFile), 'images', asset.originalFilename)
  let bytes: Buffer
  try {
    bytes = await readFile(file)
  } catch {
    throw new Error(`Invalid content: document "${asset._id}", field "originalFilename": no file at ${file}`)
  }
  const sha1 = createHash('sha1').update(bytes).digest('hex')
  if (asset.sha1hash && asset.sha1hash !== sha1)
    throw new Error(
      `Invalid content: document "${asset._id}", field "sha1hash": ${file} has changed (sha1 ${sha1}); regenerate the dataset`,
    )
  return bytes
}

async function downloadAsset(asset: MediaAsset): Promise<Buffer> {
  if (!asset.url) throw new Error(`Invalid content: document "${asset._id}", field "url": is missing`)
  const response = await fetch(asset.url)
  if (!response.ok)
    throw new Error(`Could not download asset "${asset._id}" from ${asset.url}: HTTP ${response.status}`)
  return Buffer.from(await response.arrayBuffer())
}
