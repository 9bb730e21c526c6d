/** Maps an image projection to the `ContentImage` components take, and names the media step's files (an invalid asset `_id` throws). */
import { SANITY_DATASET, SANITY_PROJECT_ID } from '../studio.ts'
import type { InlineSvg } from './inline-svg.ts'

/** An image as components take it: same-origin path, size in px, alt text, `srcset`, inline SVG, hotspot. */
export type ContentImage = {
  src: string
  width: number
  height: number
  alt: string
  srcSet?: string
  inlineSvg?: InlineSvg
  focus?: ImageFocus
}

/** The editor's hotspot as fractions of width and height (0 = left or top), for `object-position`. */
export type ImageFocus = { x: number; y: number }

/** The focus of an image field's hotspot; none at the centre (the browser's default crop). */
export function imageFocus(hotspot: { x: number; y: number } | null | undefined): ImageFocus | undefined {
  if (!hotspot || (hotspot.x === 0.5 && hotspot.y === 0.5)) return undefined
  return { x: hotspot.x, y: hotspot.y }
}

/** The URL folder (and the folder under `public/`) that holds content images. */
export const MEDIA_URL_DIR = '/media'

const ASSET_ID = /^image-([a-zA-Z0-9]+)-(\d+)x(\d+)-([a-z0-9]+)$/

function parseAssetId(assetId: string): { hash: string; width: number; height: number; extension: string } {
  const match = ASSET_ID.exec(assetId)
  if (!match) throw new Error(`Invalid content: "${assetId}" is not a Sanity image asset id`)
  return { hash: match[1]!, width: Number(match[2]), height: Number(match[3]), extension: match[4]! }
}

export const isImageAssetId = (value: string): boolean => ASSET_ID.test(value)

/** The content hash an asset `_id` carries: Sanity names an asset by its file's sha1. */
export const assetHash = (assetId: string): string => parseAssetId(assetId).hash

const MEDIA_FILE_NAME = /^[a-zA-Z0-9]+-\d+x\d+(?:-\d+w\.webp|\.[a-z0-9]+)$/

/** True for a file name the media step writes: what a server may take from a URL to name a file there. */
export const isMediaFileName = (name: string): boolean => MEDIA_FILE_NAME.test(name)

/** File name of an asset in the naming of Sanity's CDN: `<sha1>-<w>x<h>.<ext>`. */
export function mediaFileName(assetId: string): string {
  const { hash, width, height, extension } = parseAssetId(assetId)
  return `${hash}-${width}x${height}.${extension}`
}

export function assetSize(assetId: string): { width: number; height: number } {
  const { width, height } = parseAssetId(assetId)
  return { width, height }
}

/** Widths (px) of a raster image's WebP copies: 1600 covers the widest slot (the hero's 540 CSS px) at 3x. */
export const RASTER_WIDTHS = [480, 800, 1200, 1600] as const

/** WebP quality of the copies (sharp, 1-100). */
export const RASTER_QUALITY = 75

// SVG draws at any size and a GIF may be animated: both are served as uploaded.
const RASTER_EXTENSIONS = new Set(['jpg', 'jpeg', 'png', 'webp', 'avif', 'tif', 'tiff'])

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

export const imageMimeType = (extension: string): string | undefined =>
  Object.hasOwn(IMAGE_MIME_TYPES, extension) ? IMAGE_MIME_TYPES[extension] : undefined

export const isRasterAsset = (assetId: string): boolean =>
  RASTER_EXTENSIONS.has(parseAssetId(assetId).extension)

/** The widths of a raster image's copies: each `RASTER_WIDTHS` step narrower than it, and its own width up to the last (never enlarged). */
export function rasterWidths(width: number): number[] {
  const widths: number[] = RASTER_WIDTHS.filter((step) => step < width)
  const widest = Math.min(width, RASTER_WIDTHS.at(-1)!)
  return widths.includes(widest) ? widths : [...widths, widest]
}

/** File name of a raster asset's copy `width` px wide: `<sha1>-<w>x<h>-<width>w.webp`. */
export function rasterFileName(assetId: string, width: number): string {
  const { hash, width: originalWidth, height } = parseAssetId(assetId)
  return `${hash}-${originalWidth}x${height}-${width}w.webp`
}

/** The copies of a raster asset: what `syncMedia` writes and `toContentImage` offers. */
export const rasterCopies = (assetId: string): { name: string; width: number }[] =>
  rasterWidths(parseAssetId(assetId).width).map((width) => ({ name: rasterFileName(assetId, width), width }))

/** The files the media step writes for an asset: a raster image's copies, any other as uploaded. */
export function mediaFileNames(assetId: string): string[] {
  return isRasterAsset(assetId) ? rasterCopies(assetId).map(({ name }) => name) : [mediaFileName(assetId)]
}

/** An image field as the queries project it: `image{alt, hotspot{x, y}, asset->{...}}`. */
export type ProjectedImage = {
  alt: string
  hotspot?: { x: number; y: number } | null
  asset: { _id: string; metadata: { dimensions: { width: number; height: number } | null } | null } | null
} | null

/** A validated image as components take it; a raster image's copies at `copyUrl`, when given. */
function contentImage(
  image: ProjectedImage,
  caller: string,
  src: (assetId: string) => string,
  copyUrl?: (assetId: string, width: number) => string,
): ContentImage {
  const dimensions = image?.asset?.metadata?.dimensions
  if (!image?.asset || !dimensions) throw new Error(`${caller}: image was not validated`)
  const assetId = image.asset._id
  const focus = imageFocus(image.hotspot)
  const sized = {
    width: dimensions.width,
    height: dimensions.height,
    alt: image.alt,
    ...(focus && { focus }),
  }
  if (!copyUrl || !isRasterAsset(assetId)) return { src: src(assetId), ...sized }
  const copies = rasterWidths(parseAssetId(assetId).width).map((width) => ({
    url: copyUrl(assetId, width),
    width,
  }))
  return {
    // The widest copy: what a browser without srcset (and a share card) gets.
    src: copies.at(-1)!.url,
    srcSet: copies.map(({ url, width }) => `${url} ${width}w`).join(', '),
    ...sized,
  }
}

/** Turns a validated image projection (`imageAsset` in build-rules.ts) into what components take. */
export const toContentImage = (image: ProjectedImage): ContentImage =>
  contentImage(
    image,
    'toContentImage',
    (assetId) => `${MEDIA_URL_DIR}/${mediaFileName(assetId)}`,
    (assetId, width) => `${MEDIA_URL_DIR}/${rasterFileName(assetId, width)}`,
  )

/** Where a preview serves an image not yet in `public/media/`, by asset `_id` (server/preview/preview-media.ts). */
export const PREVIEW_MEDIA_URL_DIR = '/preview-media'

export const SANITY_IMAGE_CDN_ORIGIN = 'https://cdn.sanity.io'

/** Where a preview's uncopied image comes from: the local dataset, or a project's dataset on Sanity's CDN. */
export type DatasetImageOrigin = { kind: 'local' } | { kind: 'sanity'; projectId: string; dataset: string }

/** A validated image from the dataset, for a preview when the media step has not copied it. @throws on invalid names */
export function toDatasetImage(image: ProjectedImage, origin: DatasetImageOrigin): ContentImage {
  if (origin.kind === 'local')
    return contentImage(image, 'toDatasetImage', (assetId) => `${PREVIEW_MEDIA_URL_DIR}/${assetId}`)
  const url = (assetId: string) => {
    // Sanity's rules for both names leave nothing that a URL path would read otherwise.
    for (const [name, value, rule] of [
      ['project id', origin.projectId, SANITY_PROJECT_ID],
      ['dataset', origin.dataset, SANITY_DATASET],
    ] as const)
      if (!rule.test(value)) throw new Error(`toDatasetImage: "${value}" is not a Sanity ${name}`)
    return `${SANITY_IMAGE_CDN_ORIGIN}/images/${origin.projectId}/${origin.dataset}/${mediaFileName(assetId)}`
  }
  return contentImage(
    image,
    'toDatasetImage',
    url,
    (assetId, width) => `${url(assetId)}?w=${width}&fm=webp&q=${RASTER_QUALITY}`,
  )
}
