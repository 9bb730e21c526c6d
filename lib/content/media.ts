/**
 * Content images. Every image the site shows is a `sanity.imageAsset` document;
 * the build copies each referenced asset into `public/media/` so that the
 * exported site serves its own images and never calls Sanity's CDN.
 */
import { createHash } from 'node:crypto'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { brotliCompressSync } from 'node:zlib'
import svgToTinyDataUri from 'mini-svg-data-uri'
import { toInlineSvg, type InlineSvg } from './inline-svg.ts'
import type { ContentSource } from './source.ts'

/**
 * An image as components take it: a same-origin path, intrinsic size in px, alt text,
 * and, for a small SVG above the fold, its sanitised markup to draw inside the page
 * (`inlineIfSmall`).
 */
export type ContentImage = { src: string; width: number; height: number; alt: string; inlineSvg?: InlineSvg }

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

/**
 * The most an inlined image may add to its page's HTML on the wire (brotli, bytes).
 * About one and a half packets: it keeps a page's HTML inside the first congestion
 * window (14.6 KB) while saving the phone a whole round trip (562 ms in Lighthouse's
 * mobile throttling) between the HTML and the image. The seed's SVG illustrations
 * cost 1.3 to 1.6 KB; a photo never fits.
 */
export const INLINE_IMAGE_MAX_BROTLI_BYTES = 2048

const mimeTypes: Record<string, string> = {
  avif: 'image/avif',
  gif: 'image/gif',
  jpg: 'image/jpeg',
  png: 'image/png',
  svg: 'image/svg+xml',
  webp: 'image/webp',
}

/**
 * An above-the-fold image written into the page when that is cheap, so that it paints
 * with the HTML rather than a round trip later (the small-asset inlining of Vite's
 * `assetsInlineLimit`, with the cost counted compressed):
 * - an SVG that passes `toInlineSvg`'s gates becomes markup (`inlineSvg`), drawn by the
 *   page's own `<svg>`: no request at all, not even a `data:` one;
 * - any other small image (or an SVG that fails a gate) becomes a `data:` URL: SVG as
 *   URL-escaped text by `mini-svg-data-uri` (compresses with the page, and is a valid
 *   URL: no spaces), other types as base64.
 * Reads the file the build copied into `<publicDir>/media/`.
 * @param image from the content layer (`src` is `/media/<file>`)
 * @param publicDir the Next.js `public/` folder (default: `./public`, where builds run)
 * @returns the same image with `inlineSvg` set or `src` a `data:` URL, or unchanged when
 *   its type is unknown or it would cost the HTML more than INLINE_IMAGE_MAX_BROTLI_BYTES
 * @throws Error naming the file when the build has not copied it (run scripts/sync-media.ts)
 */
export async function inlineIfSmall(
  image: ContentImage,
  publicDir = path.resolve('public'),
): Promise<ContentImage> {
  const mimeType = mimeTypes[path.extname(image.src).slice(1).toLowerCase()]
  if (!mimeType || !image.src.startsWith(`${MEDIA_URL_DIR}/`)) return image
  const file = path.join(publicDir, image.src)
  let bytes: Buffer
  try {
    bytes = await readFile(file)
  } catch {
    throw new Error(`inlineIfSmall: no file at ${file} for image ${image.src}; run scripts/sync-media.ts`)
  }
  const fitsBudget = (text: string) => brotliCompressSync(text).length <= INLINE_IMAGE_MAX_BROTLI_BYTES
  if (mimeType === 'image/svg+xml') {
    const svg = bytes.toString('utf8')
    // Ids and classes get a prefix of the file's own: its name starts with its content
    // hash (mediaFileName), so two different drawings on a page never share one.
    const contentHash = path.basename(image.src).split('-')[0]!
    const inlineSvg = await toInlineSvg(svg, `i${contentHash.slice(0, 8)}`)
    if (inlineSvg) return fitsBudget(inlineSvg.markup) ? { ...image, inlineSvg } : image
    // toSrcset also escapes spaces: a URL in an HTML attribute may not contain one (W3C Nu checker).
    const dataUrl = svgToTinyDataUri.toSrcset(svg)
    return fitsBudget(dataUrl) ? { ...image, src: dataUrl } : image
  }
  const dataUrl = `data:${mimeType};base64,${bytes.toString('base64')}`
  return fitsBudget(dataUrl) ? { ...image, src: dataUrl } : image
}

/**
 * `inlineIfSmall` for the images of the first `count` items of a grid (the cards above
 * the fold); the rest keep their `/media/` URLs and load lazily.
 * @param publicDir as for `inlineIfSmall`
 * @returns a new array, items in the same order
 */
export async function inlineFirstImages<T extends { image: ContentImage }>(
  items: T[],
  count: number,
  publicDir?: string,
): Promise<T[]> {
  return Promise.all(
    items.map(async (item, index) =>
      index < count ? { ...item, image: await inlineIfSmall(item.image, publicDir) } : item,
    ),
  )
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
