/**
 * Content images. Every image the site shows is a `sanity.imageAsset` document;
 * the build copies each referenced asset into `public/media/` so that the
 * exported site serves its own images and never calls Sanity's CDN.
 */
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { brotliCompressSync } from 'node:zlib'
import svgToTinyDataUri from 'mini-svg-data-uri'
import { toInlineSvg, type InlineSvg } from './inline-svg.ts'
import type { ContentSource } from './source.ts'
import { assetFileOf, ContentError } from './validate.ts'

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

/** The parts of a Sanity image asset `_id`: `image-<sha1>-<w>x<h>-<ext>`. */
function parseAssetId(assetId: string): { hash: string; width: number; height: number; extension: string } {
  const match = /^image-([a-zA-Z0-9]+)-(\d+)x(\d+)-([a-z0-9]+)$/.exec(assetId)
  if (!match) throw new Error(`Invalid content: "${assetId}" is not a Sanity image asset id`)
  return { hash: match[1]!, width: Number(match[2]), height: Number(match[3]), extension: match[4]! }
}

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
function rasterCopies(assetId: string): { name: string; width: number }[] {
  return rasterWidths(assetSize(assetId).width).map((width) => ({
    name: rasterFileName(assetId, width),
    width,
  }))
}

type ProjectedImage = {
  alt: string
  hotspot?: { x: number; y: number } | null
  asset: { _id: string; metadata: { dimensions: { width: number; height: number } | null } | null } | null
} | null

/**
 * Turns a validated image projection into what components take.
 * @param image the `image{alt, hotspot{x, y}, asset->{...}}` projection (already checked by `validate.image`)
 */
export function toContentImage(image: ProjectedImage): ContentImage {
  const dimensions = image?.asset?.metadata?.dimensions
  if (!image?.asset || !dimensions) throw new Error('toContentImage: image was not validated')
  const { _id: assetId } = image.asset
  const focus = imageFocus(image.hotspot)
  const sized = {
    width: dimensions.width,
    height: dimensions.height,
    alt: image.alt,
    ...(focus && { focus }),
  }
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
 * @param use which use of this image on the page it is (0 for the first): the same
 *   drawing inlined twice in one page gets ids of its own each time, or the page would
 *   repeat an id (invalid HTML, and a `url(#id)` of the second would point at the first)
 * @returns the same image with `inlineSvg` set or `src` a `data:` URL, or unchanged when
 *   its type is unknown or it would cost the HTML more than INLINE_IMAGE_MAX_BROTLI_BYTES
 * @throws Error naming the file when the build has not copied it (run scripts/sync-media.ts)
 */
export async function inlineIfSmall(
  image: ContentImage,
  publicDir = path.resolve('public'),
  use = 0,
): Promise<ContentImage> {
  const mimeType = mimeTypes[path.extname(image.src).slice(1).toLowerCase()]
  if (!mimeType || !image.src.startsWith(`${MEDIA_URL_DIR}/`)) return image
  const file = path.join(publicDir, image.src)
  // A media file's name starts with its content hash (mediaFileName): the same name is the
  // same bytes, so each file and use is sanitised and compressed once per process, not
  // once per page that shows it (SVGO, DOMPurify and brotli were most of a page's render).
  const key = `${file}\0${use}`
  let inlined = inlinedFiles.get(key)
  if (!inlined) {
    inlined = keptOrInlined(file, image.src, mimeType, use)
    inlinedFiles.set(key, inlined)
    inlined.catch(() => inlinedFiles.delete(key))
  }
  const change = await inlined
  return change ? { ...image, ...change } : image
}

/** What inlining changes in an image, by file and use (see `inlineIfSmall`); null: nothing. */
type InlinedImage = Partial<Pick<ContentImage, 'inlineSvg' | 'src' | 'srcSet'>>
const inlinedFiles = new Map<string, Promise<InlinedImage | null>>()

/**
 * The environment variable naming where `inlineIfSmall` keeps its results from one build
 * to the next. The build sets it to a folder of its compile (scripts/build.ts): a result
 * depends only on the file's bytes (its name starts with their hash) and on this code, so
 * a publish that shows the same drawings loads neither SVGO nor jsdom. Unset (the preview
 * server, tests), nothing is kept.
 */
export const INLINE_IMAGE_CACHE_ENV = 'INLINE_IMAGE_CACHE'

/**
 * `inlinedFile`'s result, from the kept results when the build keeps them, else worked
 * out (and kept). The file must be in the build either way.
 */
async function keptOrInlined(
  file: string,
  src: string,
  mimeType: string,
  use: number,
): Promise<InlinedImage | null> {
  const dir = process.env[INLINE_IMAGE_CACHE_ENV]
  if (!dir) return inlinedFile(file, src, mimeType, use)
  try {
    await access(file)
  } catch {
    throw new Error(`inlineIfSmall: no file at ${file} for image ${src}; run scripts/sync-media.ts`)
  }
  const entry = path.join(dir, `${path.basename(file)}.${use}.json`)
  // JSON has no undefined: a change that clears a field (a raster's srcSet) keeps it as null.
  const kept = await readFile(entry, 'utf8').then(keptEntry, () => null)
  if (kept)
    return kept.change && Object.fromEntries(Object.entries(kept.change).map(([k, v]) => [k, v ?? undefined]))
  const change = await inlinedFile(file, src, mimeType, use)
  await mkdir(dir, { recursive: true })
  // Written whole, then renamed: another render process never reads half an entry.
  const partial = `${entry}.${process.pid}.partial`
  await writeFile(
    partial,
    JSON.stringify({ change }, (_, value: unknown) => value ?? null),
  )
  await rename(partial, entry)
  return change
}

/** A kept result as `keptOrInlined` wrote it, or null when the text is not one (worked out again then). */
function keptEntry(text: string): { change: Record<string, unknown> | null } | null {
  try {
    const parsed = JSON.parse(text) as unknown
    if (parsed && typeof parsed === 'object' && 'change' in parsed)
      return parsed as { change: Record<string, unknown> | null }
  } catch {
    // not JSON: worked out again
  }
  return null
}

/** `inlineIfSmall`'s work for one file and use. */
async function inlinedFile(
  file: string,
  src: string,
  mimeType: string,
  use: number,
): Promise<InlinedImage | null> {
  let bytes: Buffer
  try {
    bytes = await readFile(file)
  } catch {
    throw new Error(`inlineIfSmall: no file at ${file} for image ${src}; run scripts/sync-media.ts`)
  }
  const fitsBudget = (text: string) => brotliCompressSync(text).length <= INLINE_IMAGE_MAX_BROTLI_BYTES
  if (mimeType === 'image/svg+xml') {
    const svg = bytes.toString('utf8')
    // Ids and classes get a prefix of the file's own: its name starts with its content
    // hash (mediaFileName), so two different drawings on a page never share one; a
    // second use of the same drawing adds its use.
    const contentHash = path.basename(src).split('-')[0]!
    const inlineSvg = await toInlineSvg(svg, `i${contentHash.slice(0, 8)}${use > 0 ? `u${use}` : ''}`)
    if (inlineSvg) return fitsBudget(inlineSvg.markup) ? { inlineSvg } : null
    // toSrcset also escapes spaces: a URL in an HTML attribute may not contain one (W3C Nu checker).
    const dataUrl = svgToTinyDataUri.toSrcset(svg)
    return fitsBudget(dataUrl) ? { src: dataUrl } : null
  }
  const dataUrl = `data:${mimeType};base64,${bytes.toString('base64')}`
  // A raster image is read from its widest copy; inlined, it needs no srcset.
  return fitsBudget(dataUrl) ? { src: dataUrl, srcSet: undefined } : null
}

/**
 * `inlineIfSmall` for the images of the first `count` items of a grid (the cards above
 * the fold); the rest keep their `/media/` URLs and load lazily. Two items with the same
 * image are two uses of it (`use`), so their drawings' ids differ.
 * @param publicDir as for `inlineIfSmall`
 * @returns a new array, items in the same order
 */
export async function inlineFirstImages<T extends { image: ContentImage }>(
  items: T[],
  count: number,
  publicDir?: string,
): Promise<T[]> {
  const uses = new Map<string, number>()
  return Promise.all(
    items.map(async (item, index) => {
      if (index >= count) return item
      const use = uses.get(item.image.src) ?? 0
      uses.set(item.image.src, use + 1)
      return { ...item, image: await inlineIfSmall(item.image, publicDir, use) }
    }),
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
