/**
 * @jest-environment node
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliCompressSync } from 'node:zlib'
import {
  inlineFirstImages,
  inlineIfSmall,
  INLINE_IMAGE_CACHE_ENV,
  INLINE_IMAGE_MAX_BROTLI_BYTES,
} from '@/lib/content/inline-image'
import type { ContentImage } from '@/lib/content/image'

let publicDir: string
const svg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 800"><rect width="1200" height="800" fill="#0b1220"/><text x="60" y="120" font-family="sans-serif">Booked: 34/35</text></svg>'
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)
// A drawing with HTML inside it fails toInlineSvg's gates: it may only be shown as an <img>.
const htmlInside = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><foreignObject width="10" height="10"><p>Booked: 34/35</p></foreignObject></svg>`
// Random bytes do not compress: as text they cost the HTML far more than the limit.
const bigSvg = `<svg xmlns="http://www.w3.org/2000/svg"><desc>${randomBytes(4096).toString('hex')}</desc></svg>`

const image = (file: string): ContentImage => ({
  src: `/media/${file}`,
  width: 1200,
  height: 800,
  alt: 'A chart',
})

beforeAll(async () => {
  publicDir = await mkdtemp(path.join(tmpdir(), 'inline-images-'))
  await mkdir(path.join(publicDir, 'media'))
  await writeFile(path.join(publicDir, 'media', 'small-1200x800.svg'), svg)
  await writeFile(path.join(publicDir, 'media', 'big-1200x800.svg'), bigSvg)
  await writeFile(path.join(publicDir, 'media', 'html-10x10.svg'), htmlInside)
  await writeFile(path.join(publicDir, 'media', 'dot-1x1.png'), png)
  await writeFile(path.join(publicDir, 'media', 'scan-1x1.tiff'), png)
})
afterAll(() => rm(publicDir, { recursive: true, force: true }))

test('a small SVG that passes the gates becomes sanitised markup; its file URL, size and alt are kept', async () => {
  const inlined = await inlineIfSmall(image('small-1200x800.svg'), publicDir)
  expect(inlined).toMatchObject({
    src: '/media/small-1200x800.svg',
    width: 1200,
    height: 800,
    alt: 'A chart',
  })
  expect(inlined.inlineSvg?.viewBox).toBe('0 0 1200 800')
  expect(inlined.inlineSvg?.markup).toContain('Booked: 34/35')
})

test('a small SVG that fails a gate becomes a URL-escaped data: URL, shown as an <img>', async () => {
  const inlined = await inlineIfSmall(image('html-10x10.svg'), publicDir)
  expect(inlined.inlineSvg).toBeUndefined()
  expect(inlined.src).toMatch(/^data:image\/svg\+xml,/)
  expect(inlined.src).not.toMatch(/["\s]/) // a valid URL inside an HTML attribute
  const decoded = decodeURIComponent(inlined.src.slice('data:image/svg+xml,'.length))
  expect(decoded.replaceAll("'", '"')).toBe(htmlInside)
})

test('a small raster image becomes a base64 data: URL of its exact bytes', async () => {
  const inlined = await inlineIfSmall(image('dot-1x1.png'), publicDir)
  expect(inlined.src).toBe(`data:image/png;base64,${png.toString('base64')}`)
})

test('an image that would cost the HTML more than the limit keeps its /media/ URL', async () => {
  expect(brotliCompressSync(bigSvg).length).toBeGreaterThan(INLINE_IMAGE_MAX_BROTLI_BYTES)
  expect(await inlineIfSmall(image('big-1200x800.svg'), publicDir)).toEqual(image('big-1200x800.svg'))
})

test('a type browsers do not all show (TIFF) is left as it is', async () => {
  expect(await inlineIfSmall(image('scan-1x1.tiff'), publicDir)).toEqual(image('scan-1x1.tiff'))
})

test('a missing file is an error that names it', async () => {
  await expect(inlineIfSmall(image('gone-1200x800.svg'), publicDir)).rejects.toThrow(
    path.join(publicDir, 'media', 'gone-1200x800.svg'),
  )
})

test('a file is inlined once per use: another page reads nothing again, keeps its own alt', async () => {
  const file = path.join(publicDir, 'media', 'once-1200x800.svg')
  await writeFile(file, svg)
  const first = await inlineIfSmall(image('once-1200x800.svg'), publicDir)
  // A media file's name is its content: once inlined, the file is not read again.
  await rm(file)
  const again = await inlineIfSmall({ ...image('once-1200x800.svg'), alt: 'Another page' }, publicDir)
  expect(again).toEqual({ ...first, alt: 'Another page' })
  // A second use on one page is a drawing with ids of its own, so it is made apart.
  await expect(inlineIfSmall(image('once-1200x800.svg'), publicDir, 1)).rejects.toThrow(file)
})

test('a missing file is not remembered: once the build copies it, it is inlined', async () => {
  const name = 'late-1200x800.svg'
  await expect(inlineIfSmall(image(name), publicDir)).rejects.toThrow(name)
  await writeFile(path.join(publicDir, 'media', name), svg)
  expect((await inlineIfSmall(image(name), publicDir)).inlineSvg).toBeDefined()
})

test('inlineFirstImages inlines only the first cards, in order, leaving the rest lazy', async () => {
  const cards = ['a', 'b', 'c'].map((id) => ({ id, image: image('small-1200x800.svg') }))
  const result = await inlineFirstImages(cards, 1, publicDir)
  expect(result.map((card) => card.id)).toEqual(['a', 'b', 'c'])
  expect(result[0]?.image.inlineSvg).toBeDefined()
  expect(result.slice(1).map((card) => card.image)).toEqual([
    image('small-1200x800.svg'),
    image('small-1200x800.svg'),
  ])
  expect(cards[0]?.image).toEqual(image('small-1200x800.svg')) // the input is not changed
})

describe('results kept between builds (INLINE_IMAGE_CACHE)', () => {
  let keptDir: string
  beforeEach(async () => {
    keptDir = await mkdtemp(path.join(tmpdir(), 'inline-kept-'))
    process.env[INLINE_IMAGE_CACHE_ENV] = keptDir
  })
  afterEach(async () => {
    delete process.env[INLINE_IMAGE_CACHE_ENV]
    await rm(keptDir, { recursive: true, force: true })
  })

  test('a result is kept under the file name and use, as JSON', async () => {
    const inlined = await inlineIfSmall(image('small-1200x800.svg'), publicDir, 3)
    const kept = JSON.parse(await readFile(path.join(keptDir, 'small-1200x800.svg.3.json'), 'utf8'))
    expect(kept).toEqual({ change: { inlineSvg: inlined.inlineSvg } })
    expect(inlined.inlineSvg?.markup).toContain('Booked: 34/35')
  })

  test('an image too big to inline is kept as no change', async () => {
    await inlineIfSmall(image('big-1200x800.svg'), publicDir, 3)
    const kept = JSON.parse(await readFile(path.join(keptDir, 'big-1200x800.svg.3.json'), 'utf8'))
    expect(kept).toEqual({ change: null })
  })

  test('a kept result is used as it is, and a field it clears stays cleared', async () => {
    await writeFile(
      path.join(keptDir, 'dot-1x1.png.9.json'),
      JSON.stringify({ change: { src: 'data:image/png;base64,kept', srcSet: null } }),
    )
    const inlined = await inlineIfSmall(
      { ...image('dot-1x1.png'), srcSet: '/media/dot-480.webp 480w' },
      publicDir,
      9,
    )
    expect(inlined.src).toBe('data:image/png;base64,kept')
    expect(inlined.srcSet).toBeUndefined()
  })

  test('an entry that is not one is worked out again and written whole', async () => {
    const entry = path.join(keptDir, 'dot-1x1.png.8.json')
    await writeFile(entry, '{"chan')
    const inlined = await inlineIfSmall(image('dot-1x1.png'), publicDir, 8)
    expect(inlined.src).toBe(`data:image/png;base64,${png.toString('base64')}`)
    expect(JSON.parse(await readFile(entry, 'utf8'))).toEqual({ change: { src: inlined.src, srcSet: null } })
  })

  test('a file missing from the build is still an error, whatever is kept', async () => {
    await writeFile(path.join(keptDir, 'gone-1200x800.svg.4.json'), JSON.stringify({ change: null }))
    await expect(inlineIfSmall(image('gone-1200x800.svg'), publicDir, 4)).rejects.toThrow(
      path.join(publicDir, 'media', 'gone-1200x800.svg'),
    )
  })
})
