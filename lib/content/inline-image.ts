/** Above-the-fold content images written into the page when cheap: an SVG as markup, another small image as a `data:` URL (docs/speed.md). */
import { access, mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { brotliCompressSync } from 'node:zlib'
import svgToTinyDataUri from 'mini-svg-data-uri'
import { imageMimeType, MEDIA_URL_DIR, type ContentImage } from './image.ts'
import { toInlineSvg } from './inline-svg.ts'

/** The most an inlined image may add to its page's HTML, brotli bytes: the HTML stays in the first congestion window. */
export const INLINE_IMAGE_MAX_BROTLI_BYTES = 2048

/**
 * An above-the-fold image inlined when it costs the HTML at most INLINE_IMAGE_MAX_BROTLI_BYTES:
 * an SVG as markup, another as a `data:` URL; else unchanged. `use` keeps a repeated drawing's ids apart.
 * @throws Error naming the file when the build has not copied it
 */
export async function inlineIfSmall(
  image: ContentImage,
  publicDir = path.resolve('public'),
  use = 0,
): Promise<ContentImage> {
  const mimeType = imageMimeType(path.extname(image.src).slice(1).toLowerCase())
  // Not TIFF: not every browser shows it.
  if (!mimeType || mimeType === 'image/tiff' || !image.src.startsWith(`${MEDIA_URL_DIR}/`)) return image
  const file = path.join(publicDir, image.src)
  // The name starts with the content hash: each file and use is inlined once per process.
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

type InlinedImage = Partial<Pick<ContentImage, 'inlineSvg' | 'src' | 'srcSet'>>
const inlinedFiles = new Map<string, Promise<InlinedImage | null>>()

/** The variable naming where `inlineIfSmall` keeps its results between builds; unset, nothing is kept. */
export const INLINE_IMAGE_CACHE_ENV = 'INLINE_IMAGE_CACHE'

/** `inlinedFile`'s result, from the kept results when the build keeps them. @throws Error naming a missing file */
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
  const kept = await readFile(entry, 'utf8')
    .then(
      (text) => JSON.parse(text) as { change: InlinedImage | null } | null,
      () => null,
    )
    .catch(() => null) // not JSON: worked out again
  if (kept && typeof kept === 'object' && 'change' in kept)
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
    // Prefixed by the content hash (and use): two drawings on a page never share an id.
    const contentHash = path.basename(src).split('-')[0]!
    const inlineSvg = await toInlineSvg(svg, `i${contentHash.slice(0, 8)}${use > 0 ? `u${use}` : ''}`)
    if (inlineSvg) return fitsBudget(inlineSvg.markup) ? { inlineSvg } : null
    // toSrcset also escapes spaces: a URL in an HTML attribute may not contain one.
    const dataUrl = svgToTinyDataUri.toSrcset(svg)
    return fitsBudget(dataUrl) ? { src: dataUrl } : null
  }
  const dataUrl = `data:${mimeType};base64,${bytes.toString('base64')}`
  // A raster image is read from its widest copy; inlined, it needs no srcset.
  return fitsBudget(dataUrl) ? { src: dataUrl, srcSet: undefined } : null
}

/** `inlineIfSmall` for the images of a grid's first `count` items; a repeated image is another use. */
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
