/**
 * Above-the-fold content images written into the page when that is cheap
 * (`inlineIfSmall`, `inlineFirstImages`), at build time: an SVG as sanitised markup
 * (inline-svg.ts), any other small image as a `data:` URL.
 */
import { access, mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { brotliCompressSync } from 'node:zlib'
import svgToTinyDataUri from 'mini-svg-data-uri'
import { MEDIA_URL_DIR, type ContentImage } from './image.ts'
import { toInlineSvg } from './inline-svg.ts'

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
 * @throws Error naming the file when the build has not copied it (run scripts/check-content.ts)
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
 * @throws Error naming the file when the build has not copied it
 */
async function keptOrInlined(
  file: string,
  src: string,
  mimeType: string,
  use: number,
): Promise<InlinedImage | null> {
  try {
    await access(file)
  } catch {
    throw new Error(`inlineIfSmall: no file at ${file} for image ${src}; run scripts/check-content.ts`)
  }
  const dir = process.env[INLINE_IMAGE_CACHE_ENV]
  if (!dir) return inlinedFile(file, src, mimeType, use)
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

/** `inlineIfSmall`'s work for one file and use (`keptOrInlined` found the file). */
async function inlinedFile(
  file: string,
  src: string,
  mimeType: string,
  use: number,
): Promise<InlinedImage | null> {
  const bytes = await readFile(file)
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
