/**
 * Content images as components take them: the mapping of a Sanity image projection to a
 * `ContentImage` (a same-origin `/media/` URL, size, alt text, a raster image's `srcset`
 * of resized copies, the editor's hotspot), and the file names of those copies. The
 * files themselves are written by the build's media step (media-sync.ts); small ones
 * are drawn into the page by inline-image.ts. In an editor's preview, an image whose
 * files that step has not written yet (a draft's new upload) is taken from the dataset
 * instead (`toDatasetImage`, preview-images.ts).
 */
import { SANITY_DATASET, SANITY_PROJECT_ID } from '../studio.ts'
import type { InlineSvg } from './inline-svg.ts'

/**
 * An image as components take it: a same-origin path, intrinsic size in px, alt text,
 * for a raster image the `srcset` of its resized WebP copies (`rasterWidths`), for
 * a small SVG above the fold its sanitised markup to draw inside the page
 * (`inlineIfSmall`), and the editor's hotspot when it is not the centre (`focus`).
 */
export type ContentImage = {
  src: string
  width: number
  height: number
  alt: string
  srcSet?: string
  inlineSvg?: InlineSvg
  focus?: ImageFocus
}

/**
 * The point of an image that a crop keeps in view: the editor's hotspot in the
 * Studio, as fractions of the image's width and height (0 = left or top, 1 = right or
 * bottom). Where a layout crops the image (`object-cover`), CSS `object-position` at
 * these percentages keeps that point inside the box (ContentImage).
 */
export type ImageFocus = { x: number; y: number }

/**
 * The focus of an image field, from its hotspot: none when the editor set no hotspot
 * or left it at the centre (the browser's default crop), so such an image renders as before.
 * @param hotspot the field's `hotspot{x, y}` projection (validated: fractions from 0 to 1)
 */
export function imageFocus(hotspot: { x: number; y: number } | null | undefined): ImageFocus | undefined {
  if (!hotspot || (hotspot.x === 0.5 && hotspot.y === 0.5)) return undefined
  return { x: hotspot.x, y: hotspot.y }
}

/** The URL folder (and the folder under `public/`) that holds content images. */
export const MEDIA_URL_DIR = '/media'

/** A Sanity image asset `_id`: `image-<sha1>-<w>x<h>-<ext>`, nothing before or after. */
const ASSET_ID = /^image-([a-zA-Z0-9]+)-(\d+)x(\d+)-([a-z0-9]+)$/

/** The parts of a Sanity image asset `_id`: `image-<sha1>-<w>x<h>-<ext>`. */
function parseAssetId(assetId: string): { hash: string; width: number; height: number; extension: string } {
  const match = ASSET_ID.exec(assetId)
  if (!match) throw new Error(`Invalid content: "${assetId}" is not a Sanity image asset id`)
  return { hash: match[1]!, width: Number(match[2]), height: Number(match[3]), extension: match[4]! }
}

/** True when `value` is a Sanity image asset `_id` (`image-<sha1>-<w>x<h>-<ext>`), the rule `mediaFileName` reads ids by. */
export const isImageAssetId = (value: string): boolean => ASSET_ID.test(value)

/**
 * The content hash an asset `_id` carries (`image-<sha1>-…`): Sanity names an asset by
 * its original file's sha1, so the id names the file's bytes.
 * @throws Error when the id is not an image asset id
 */
export const assetHash = (assetId: string): string => parseAssetId(assetId).hash

/** The names `mediaFileName` and `rasterFileName` make, and no other. */
const MEDIA_FILE_NAME = /^[a-zA-Z0-9]+-\d+x\d+(?:-\d+w\.webp|\.[a-z0-9]+)$/

/**
 * True for a file name the media step writes into `public/media/` (`mediaFileName`,
 * `rasterFileName`): what a server may take from a URL to name a file there.
 */
export const isMediaFileName = (name: string): boolean => MEDIA_FILE_NAME.test(name)

/**
 * File name of an asset, from its Sanity `_id` (`image-<sha1>-<w>x<h>-<ext>`),
 * in the naming of Sanity's CDN: `<sha1>-<w>x<h>.<ext>`.
 * @throws Error when the id is not an image asset id
 */
export function mediaFileName(assetId: string): string {
  const { hash, width, height, extension } = parseAssetId(assetId)
  return `${hash}-${width}x${height}.${extension}`
}

/**
 * Width and height in px of an asset, from its `_id` (`image-<sha1>-<w>x<h>-<ext>`).
 * @throws Error when the id is not an image asset id
 */
export function assetSize(assetId: string): { width: number; height: number } {
  const { width, height } = parseAssetId(assetId)
  return { width, height }
}

/**
 * Widths (px) of the WebP copies the build makes of a raster content image, for
 * `srcset`: a phone (390 to 430 CSS px at 2 to 3x) picks 800 or 1200 for a full-width
 * slot, a desktop the size of its slot. The largest, 1600, covers the widest slot
 * (the hero's 540 CSS px) at 3x; an editor's 4000 px photo is never sent whole.
 */
export const RASTER_WIDTHS = [480, 800, 1200, 1600] as const

/** WebP quality of the copies (sharp, 1-100): photos of 1200 px stay well under 100 kB. */
export const RASTER_QUALITY = 75

/**
 * Extensions of the image assets that get resized WebP copies. SVG is drawn at any
 * size already, and a GIF may be animated: both are served as uploaded.
 */
const RASTER_EXTENSIONS = new Set(['jpg', 'jpeg', 'png', 'webp', 'avif', 'tif', 'tiff'])

/** The media types of the image files content may hold, by file extension (lower case). */
const IMAGE_MIME_TYPES: Readonly<Record<string, string>> = {
  avif: 'image/avif',
  gif: 'image/gif',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  png: 'image/png',
  svg: 'image/svg+xml',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  webp: 'image/webp',
}

/**
 * The media type of an image file by its extension (`jpg`, `svg`, ...; no dot, lower case).
 * @returns e.g. `image/jpeg`, or undefined for an extension that is not an image's
 */
export const imageMimeType = (extension: string): string | undefined =>
  Object.hasOwn(IMAGE_MIME_TYPES, extension) ? IMAGE_MIME_TYPES[extension] : undefined

/** True when the asset (by `_id`) is a photo-like image the build resizes (`RASTER_EXTENSIONS`). */
export function isRasterAsset(assetId: string): boolean {
  return RASTER_EXTENSIONS.has(parseAssetId(assetId).extension)
}

/**
 * The widths of a raster image's copies: every `RASTER_WIDTHS` step narrower than the
 * image, and the image's own width when it is narrower than the last step (never enlarged).
 * @param width the image's intrinsic width in px (from its asset `_id`, `assetSize`)
 * @returns ascending widths in px, at least one
 */
export function rasterWidths(width: number): number[] {
  const widths: number[] = RASTER_WIDTHS.filter((step) => step < width)
  const widest = Math.min(width, RASTER_WIDTHS.at(-1)!)
  return widths.includes(widest) ? widths : [...widths, widest]
}

/**
 * File name of a raster asset's copy `width` px wide: `<sha1>-<w>x<h>-<width>w.webp`.
 * @throws Error when the id is not an image asset id
 */
export function rasterFileName(assetId: string, width: number): string {
  const { hash, width: originalWidth, height } = parseAssetId(assetId)
  return `${hash}-${originalWidth}x${height}-${width}w.webp`
}

/**
 * The copies of a raster asset, by width: what `syncMedia` writes and `toContentImage`
 * offers, both from the asset `_id` so the two always name the same files.
 */
export function rasterCopies(assetId: string): { name: string; width: number }[] {
  return rasterWidths(assetSize(assetId).width).map((width) => ({
    name: rasterFileName(assetId, width),
    width,
  }))
}

/**
 * The files the build's media step writes into `public/media/` for an asset: a raster
 * image's WebP copies (`rasterCopies`), any other image as uploaded (`mediaFileName`).
 * @throws Error when the id is not an image asset id
 */
export function mediaFileNames(assetId: string): string[] {
  return isRasterAsset(assetId) ? rasterCopies(assetId).map(({ name }) => name) : [mediaFileName(assetId)]
}

/** An image field as the queries project it: `image{alt, hotspot{x, y}, asset->{...}}`. */
export type ProjectedImage = {
  alt: string
  hotspot?: { x: number; y: number } | null
  asset: { _id: string; metadata: { dimensions: { width: number; height: number } | null } | null } | null
} | null

/** A validated image's asset `_id` and what every `ContentImage` of it has: size, alt text, focus. */
function sizedImage(image: ProjectedImage, caller: string) {
  const dimensions = image?.asset?.metadata?.dimensions
  if (!image?.asset || !dimensions) throw new Error(`${caller}: image was not validated`)
  const focus = imageFocus(image.hotspot)
  return {
    assetId: image.asset._id,
    sized: { width: dimensions.width, height: dimensions.height, alt: image.alt, ...(focus && { focus }) },
  }
}

/**
 * Turns a validated image projection into what components take.
 * @param image the `image{alt, hotspot{x, y}, asset->{...}}` projection (already checked by `validate.image`)
 */
export function toContentImage(image: ProjectedImage): ContentImage {
  const { assetId, sized } = sizedImage(image, 'toContentImage')
  if (!isRasterAsset(assetId)) return { src: `${MEDIA_URL_DIR}/${mediaFileName(assetId)}`, ...sized }
  const copies = rasterCopies(assetId).map(({ name, width }) => ({ url: `${MEDIA_URL_DIR}/${name}`, width }))
  return {
    // The widest copy: what a browser without srcset (and a share card) gets.
    src: copies.at(-1)!.url,
    srcSet: copies.map(({ url, width }) => `${url} ${width}w`).join(', '),
    ...sized,
  }
}

/**
 * Where an editor's preview serves an image whose files are not in `public/media/` yet,
 * by asset `_id` (server/preview-media.ts streams the local dataset's file from there).
 */
export const PREVIEW_MEDIA_URL_DIR = '/preview-media'

/** The origin of Sanity's image CDN, the one other host a preview's images may come from. */
export const SANITY_IMAGE_CDN_ORIGIN = 'https://cdn.sanity.io'

/**
 * Where a preview's image comes from when the build has not copied it: the local
 * dataset's file (served by the preview process), or a Content Lake project's dataset
 * on Sanity's image CDN.
 */
export type DatasetImageOrigin = { kind: 'local' } | { kind: 'sanity'; projectId: string; dataset: string }

/**
 * A validated image projection as an editor's preview shows it straight from the dataset,
 * for an image the build's media step has not copied (a draft's new upload); the same
 * size, alt text and focus as `toContentImage`, so the page lays out the same:
 * - local dataset: `/preview-media/<assetId>`, the uploaded file as it is (no copies);
 * - Content Lake: its URL on Sanity's CDN, made from the asset `_id` and the source's
 *   project and dataset (Sanity documents that name as stable; the asset document's own
 *   `url` field is not trusted), a raster image with a `srcset` of the CDN's resized WebP
 *   copies at the build's widths and quality (`w`, `fm`, `q`).
 * Never for visitors' pages: the export serves only the build's copies.
 * @param image the projection, already checked by `validate.image`
 * @throws Error when the image was not validated, or a project id or dataset name is not one
 */
export function toDatasetImage(image: ProjectedImage, origin: DatasetImageOrigin): ContentImage {
  const { assetId, sized } = sizedImage(image, 'toDatasetImage')
  if (origin.kind === 'local') return { src: `${PREVIEW_MEDIA_URL_DIR}/${assetId}`, ...sized }
  // Sanity's rules for both names leave nothing that a URL path would read otherwise.
  for (const [name, value, rule] of [
    ['project id', origin.projectId, SANITY_PROJECT_ID],
    ['dataset', origin.dataset, SANITY_DATASET],
  ] as const)
    if (!rule.test(value)) throw new Error(`toDatasetImage: "${value}" is not a Sanity ${name}`)
  const url = `${SANITY_IMAGE_CDN_ORIGIN}/images/${origin.projectId}/${origin.dataset}/${mediaFileName(assetId)}`
  if (!isRasterAsset(assetId)) return { src: url, ...sized }
  const copies = rasterWidths(assetSize(assetId).width).map((width) => ({
    url: `${url}?w=${width}&fm=webp&q=${RASTER_QUALITY}`,
    width,
  }))
  return {
    src: copies.at(-1)!.url,
    srcSet: copies.map(({ url: copy, width }) => `${copy} ${width}w`).join(', '),
    ...sized,
  }
}
