/**
 * @jest-environment node
 */
import { createHash } from 'node:crypto'
import { mkdtemp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import {
  RASTER_WIDTHS,
  assetSize,
  isRasterAsset,
  rasterFileName,
  rasterWidths,
  toContentImage,
} from '@/lib/content/image'
import { syncMedia, type MediaAsset } from '@/lib/content/media-sync'

let dir: string
let datasetFile: string
let publicDir: string
let cacheDir: string

/** A photo-like test image: smooth gradients and fine noise (compresses like a photo, not like a flat drawing). */
async function photo(width: number, height: number, orientation?: number): Promise<Buffer> {
  const noise = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .blur(1.2)
    .png()
    .toBuffer()
  const image = sharp(noise).composite([
    {
      input: Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" stop-color="#1e3a8a" stop-opacity=".8"/><stop offset="1" stop-color="#f59e0b" stop-opacity=".6"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`,
      ),
    },
  ])
  return (orientation ? image.withMetadata({ orientation }) : image).jpeg({ quality: 90 }).toBuffer()
}

/** Writes `bytes` as a local dataset's image file and returns its asset document. */
async function localAsset(name: string, bytes: Buffer, width: number, height: number, ext = 'jpg') {
  const sha1 = createHash('sha1').update(bytes).digest('hex')
  await writeFile(path.join(dir, 'images', name), bytes)
  return {
    _id: `image-${sha1}-${width}x${height}-${ext}`,
    url: null,
    originalFilename: name,
    sha1hash: sha1,
  } satisfies MediaAsset
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'raster-images-'))
  await mkdir(path.join(dir, 'images'))
  datasetFile = path.join(dir, 'dataset.ndjson')
  publicDir = path.join(dir, 'public')
  cacheDir = path.join(dir, 'cache')
})
afterAll(() => rm(dir, { recursive: true, force: true }))

test('a raster image gets copies at each width step narrower than itself and at its own width, never enlarged', () => {
  expect(RASTER_WIDTHS).toEqual([480, 800, 1200, 1600])
  expect(rasterWidths(4032)).toEqual([480, 800, 1200, 1600])
  expect(rasterWidths(1200)).toEqual([480, 800, 1200])
  expect(rasterWidths(1000)).toEqual([480, 800, 1000])
  expect(rasterWidths(300)).toEqual([300])
})

test('photos are resized, SVGs and GIFs are served as uploaded', () => {
  for (const ext of ['jpg', 'png', 'webp', 'avif', 'tiff'])
    expect(isRasterAsset(`image-abc-10x10-${ext}`)).toBe(true)
  for (const ext of ['svg', 'gif']) expect(isRasterAsset(`image-abc-10x10-${ext}`)).toBe(false)
  expect(assetSize('image-abc-4032x3024-jpg')).toEqual({ width: 4032, height: 3024 })
  expect(rasterFileName('image-abc-4032x3024-jpg', 800)).toBe('abc-4032x3024-800w.webp')
})

test('a photo is shown through srcset: the widest copy is its src, its size is the original aspect', () => {
  const image = toContentImage({
    alt: 'Our workshop',
    asset: { _id: 'image-abc-4032x3024-jpg', metadata: { dimensions: { width: 4032, height: 3024 } } },
  })
  expect(image).toEqual({
    src: '/media/abc-4032x3024-1600w.webp',
    srcSet:
      '/media/abc-4032x3024-480w.webp 480w, /media/abc-4032x3024-800w.webp 800w, /media/abc-4032x3024-1200w.webp 1200w, /media/abc-4032x3024-1600w.webp 1600w',
    width: 4032,
    height: 3024,
    alt: 'Our workshop',
  })
  const drawing = toContentImage({
    alt: 'A chart',
    asset: { _id: 'image-def-1200x800-svg', metadata: { dimensions: { width: 1200, height: 800 } } },
  })
  expect(drawing).toEqual({ src: '/media/def-1200x800.svg', width: 1200, height: 800, alt: 'A chart' })
})

test("an editor's hotspot becomes the image's focus; none, or the centre, leaves the browser's centred crop", () => {
  const asset = { _id: 'image-abc-1200x800-svg', metadata: { dimensions: { width: 1200, height: 800 } } }
  expect(toContentImage({ alt: 'A chart', hotspot: { x: 0.25, y: 0.9 }, asset }).focus).toEqual({
    x: 0.25,
    y: 0.9,
  })
  expect(toContentImage({ alt: 'A chart', hotspot: { x: 0.5, y: 0.5 }, asset })).not.toHaveProperty('focus')
  expect(toContentImage({ alt: 'A chart', hotspot: null, asset })).not.toHaveProperty('focus')
})

test("the build writes an editor's 3000 px photo as WebP copies of the srcset's widths, each far under 100 kB, and never the original", async () => {
  const asset = await localAsset('workshop.jpg', await photo(3000, 2000), 3000, 2000)
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')
  const drawing = await localAsset('mark.svg', svg, 10, 10, 'svg')
  await syncMedia([asset, drawing], { kind: 'local', file: datasetFile }, publicDir, cacheDir)
  const files = (await readdir(path.join(publicDir, 'media'))).sort()
  const hash = asset.sha1hash
  expect(files).toEqual(
    [
      `${drawing.sha1hash}-10x10.svg`,
      ...[1200, 1600, 480, 800].map((width) => `${hash}-3000x2000-${width}w.webp`),
    ].sort(),
  )
  for (const width of [480, 800, 1200, 1600]) {
    const file = path.join(publicDir, 'media', `${hash}-3000x2000-${width}w.webp`)
    const meta = await sharp(file).metadata()
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
      format: 'webp',
      width,
      height: Math.round((width * 2) / 3),
    })
    expect((await stat(file)).size).toBeLessThan(100_000)
  }
}, 30_000) // sharp encodes a 3000 px photo: seconds on a busy 2-core machine

test('a photo taken sideways (EXIF orientation 6) is turned upright in its copies', async () => {
  // Stored 600x400 with "rotate 90" in its EXIF: it is seen as 400x600.
  const asset = await localAsset('portrait.jpg', await photo(600, 400, 6), 400, 600)
  await syncMedia([asset], { kind: 'local', file: datasetFile }, publicDir, cacheDir)
  const meta = await sharp(path.join(publicDir, 'media', `${asset.sha1hash}-400x600-400w.webp`)).metadata()
  expect({ width: meta.width, height: meta.height }).toEqual({ width: 400, height: 600 })
})

test('a rebuild reuses the encoded copies from the cache instead of encoding again', async () => {
  const asset = await localAsset('shop.jpg', await photo(900, 600), 900, 600)
  const source = { kind: 'local' as const, file: datasetFile }
  await syncMedia([asset], source, publicDir, cacheDir)
  const cached = path.join(cacheDir, 'webp-q75', `${asset.sha1hash}-900x600-480w.webp`)
  // Mark the cached copy: the next build must serve exactly these bytes.
  const marked = Buffer.concat([await readFile(cached), Buffer.from('cached')])
  await writeFile(cached, marked)
  await syncMedia([asset], source, publicDir, cacheDir)
  expect(await readFile(path.join(publicDir, 'media', `${asset.sha1hash}-900x600-480w.webp`))).toEqual(marked)
})

test('a file that is not an image fails the build naming the asset document', async () => {
  const asset = await localAsset('broken.jpg', Buffer.from('not a jpeg at all'), 800, 600)
  await expect(
    syncMedia([asset], { kind: 'local', file: datasetFile }, publicDir, path.join(dir, 'cache-broken')),
  ).rejects.toThrow(`Invalid content: document "${asset._id}": the image cannot be read`)
})

test("the preview server's build adds what public/media/ lacks and removes nothing (a site build may be reading it)", async () => {
  const photoAsset = await localAsset('terrace.jpg', await photo(700, 500), 700, 500)
  const drawing = await localAsset(
    'dot.svg',
    Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>'),
    4,
    4,
    'svg',
  )
  const source = { kind: 'local' as const, file: datasetFile }
  const ownPublic = path.join(dir, 'public-add')
  const media = path.join(ownPublic, 'media')
  await mkdir(media, { recursive: true })
  // Another build's image, and one copy of the photo already there (marked: it must stay as it is).
  await writeFile(path.join(media, 'other-build.svg'), '<svg/>')
  const kept = `${photoAsset.sha1hash}-700x500-480w.webp`
  await writeFile(path.join(media, kept), 'already here')
  expect(await syncMedia([photoAsset, drawing], source, ownPublic, cacheDir, 'add')).toBe(2)
  expect((await readdir(media)).sort()).toEqual(
    [
      'other-build.svg',
      `${drawing.sha1hash}-4x4.svg`,
      kept,
      `${photoAsset.sha1hash}-700x500-700w.webp`,
    ].sort(),
  )
  expect(await readFile(path.join(media, kept), 'utf8')).toBe('already here')
  expect((await sharp(path.join(media, `${photoAsset.sha1hash}-700x500-700w.webp`)).metadata()).width).toBe(
    700,
  )
  // The site build's own sync still leaves exactly the content's images.
  await syncMedia([drawing], source, ownPublic, cacheDir)
  expect(await readdir(media)).toEqual([`${drawing.sha1hash}-4x4.svg`])
})
