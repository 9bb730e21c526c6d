/**
 * @jest-environment node
 *
 * The media step's drawings and other files served as uploaded: an editor's SVG reaches
 * `public/media/` (and a page, inlined) only cleaned, the seed's come out byte for byte,
 * two builds write the same bytes, and a file of a kind the site does not serve as an
 * image, or not the kind its name says, fails the build naming its asset document.
 */
import { createHash } from 'node:crypto'
import { mkdtemp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { getMediaAssets } from '@/lib/content'
import { toContentImage } from '@/lib/content/image'
import { inlineIfSmall } from '@/lib/content/inline-image'
import { syncMedia, type MediaAsset } from '@/lib/content/media-sync'
import { SEED_FILE } from '../../helpers/dataset'
import { runnable } from '../../helpers/svgRunnable'

let dir: string
let source: { kind: 'local'; file: string }

/** The SVG an attacker chose as a portfolio site's image. */
const MALICIOUS =
  '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40" viewBox="0 0 40 40" onload="fetch(\'/x?\'+document.cookie)">' +
  '<script>document.title = "owned"</script><rect width="40" height="40" fill="#0b1220" onclick="alert(1)"/>' +
  '<foreignObject width="40" height="40"><iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:alert(2)"/></foreignObject>' +
  '<a xlink:href="javascript:alert(3)"><text x="2" y="20">Hi</text></a><use href="https://evil.example/s.svg#i"/></svg>'

/** Writes `bytes` as the local dataset's image file `name` and returns its asset document. */
async function localAsset(name: string, bytes: Buffer | string, size = '40x40', ext = 'svg') {
  const sha1 = createHash('sha1').update(bytes).digest('hex')
  await writeFile(path.join(dir, 'images', name), bytes)
  return {
    _id: `image-${sha1}-${size}-${ext}`,
    url: null,
    originalFilename: name,
    sha1hash: sha1,
  } satisfies MediaAsset
}

const mediaFile = (publicDir: string, asset: MediaAsset) =>
  path.join(
    publicDir,
    toContentImage({ alt: 'x', asset: { ...asset, metadata: { dimensions: { width: 40, height: 40 } } } })
      .src,
  )

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'media-svg-'))
  await mkdir(path.join(dir, 'images'))
  source = { kind: 'local', file: path.join(dir, 'dataset.ndjson') }
})
afterAll(() => rm(dir, { recursive: true, force: true }))

test("an editor's SVG with scripts, handlers, HTML and outside references goes to public/media/ cleaned, the drawing kept", async () => {
  const asset = await localAsset('site.svg', MALICIOUS)
  const publicDir = path.join(dir, 'public-clean')
  await syncMedia([asset], source, publicDir, path.join(dir, 'cache-clean'))
  const written = await readFile(mediaFile(publicDir, asset), 'utf8')
  expect(runnable(MALICIOUS).length).toBeGreaterThan(3)
  expect(runnable(written)).toEqual([])
  expect(written).toContain('<rect width="40" height="40" fill="#0b1220"/>')
  expect(written).toContain('<text x="2" y="20">Hi</text>')
})

test('a small drawing inlined into a page is the cleaned one, as markup or as a data: URL', async () => {
  const asset = await localAsset('inline.svg', MALICIOUS.replace('<use', '<style>rect{fill:red}</style><use'))
  const publicDir = path.join(dir, 'public-inline')
  await syncMedia([asset], source, publicDir, path.join(dir, 'cache-inline'))
  const image = toContentImage({
    alt: 'A site',
    asset: { ...asset, metadata: { dimensions: { width: 40, height: 40 } } },
  })
  const inlined = await inlineIfSmall(image, publicDir)
  const shown = inlined.inlineSvg?.markup ?? decodeURIComponent(inlined.src)
  expect(inlined.inlineSvg ?? inlined.src.startsWith('data:')).toBeTruthy()
  expect(shown).toContain('Hi')
  expect(shown).not.toMatch(/script|onload|onclick|javascript|foreignObject|evil\.example/i)
})

test("the seed's drawings come out byte for byte as uploaded, and two builds write the same bytes", async () => {
  const seed = { kind: 'local' as const, file: SEED_FILE }
  const assets = await getMediaAssets(seed)
  const drawings = assets.filter((asset) => asset._id.endsWith('-svg'))
  expect(drawings.length).toBeGreaterThan(5)
  const [first, second] = [path.join(dir, 'public-seed-1'), path.join(dir, 'public-seed-2')]
  await syncMedia(drawings, seed, first, path.join(dir, 'cache-seed-1'))
  await syncMedia(drawings, seed, second, path.join(dir, 'cache-seed-2'))
  for (const asset of drawings) {
    const original = await readFile(path.join(path.dirname(SEED_FILE), 'images', asset.originalFilename!))
    expect(await readFile(mediaFile(first, asset))).toEqual(original)
  }
  const malicious = await localAsset('twice.svg', MALICIOUS.replace('Hi', 'Twice'))
  await syncMedia([malicious], source, first, path.join(dir, 'cache-twice-1'))
  await syncMedia([malicious], source, second, path.join(dir, 'cache-twice-2'))
  expect(await readFile(mediaFile(first, malicious))).toEqual(await readFile(mediaFile(second, malicious)))
})

test('a rebuild takes the cleaned drawing from the cache, kept by the cleaning that made it', async () => {
  const asset = await localAsset('cached.svg', MALICIOUS.replace('Hi', 'Cached'))
  const publicDir = path.join(dir, 'public-cache')
  const cacheDir = path.join(dir, 'cache-cache')
  await syncMedia([asset], source, publicDir, cacheDir)
  const [folder] = (await readdir(cacheDir)).filter((name) => name.startsWith('svg-'))
  expect(folder).toMatch(/^svg-r\d+-dompurify\d+\.\d+\.\d+$/)
  const kept = path.join(cacheDir, folder!, path.basename(mediaFile(publicDir, asset)))
  await writeFile(kept, '<svg xmlns="http://www.w3.org/2000/svg"><!-- from the cache --></svg>\n')
  await syncMedia([asset], source, publicDir, cacheDir)
  expect(await readFile(mediaFile(publicDir, asset), 'utf8')).toContain('from the cache')
})

test("the preview server's build replaces a drawing an older build wrote as uploaded, and keeps a clean one", async () => {
  const asset = await localAsset('older.svg', MALICIOUS.replace('Hi', 'Older'))
  const clean = await localAsset(
    'clean.svg',
    '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>',
    '4x4',
  )
  const publicDir = path.join(dir, 'public-add')
  await mkdir(path.join(publicDir, 'media'), { recursive: true })
  await writeFile(mediaFile(publicDir, asset), MALICIOUS.replace('Hi', 'Older'))
  await writeFile(
    mediaFile(publicDir, clean),
    '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>',
  )
  const before = (await stat(mediaFile(publicDir, clean))).mtimeMs
  await new Promise((resolve) => setTimeout(resolve, 20))
  await syncMedia([asset, clean], source, publicDir, path.join(dir, 'cache-add'), 'add')
  expect(runnable(await readFile(mediaFile(publicDir, asset), 'utf8'))).toEqual([])
  expect((await stat(mediaFile(publicDir, clean))).mtimeMs).toBe(before)
})

test('a drawing the cleaning refuses fails the build naming its asset document, and nothing of it is written', async () => {
  const asset = await localAsset('broken.svg', '<svg xmlns="http://www.w3.org/2000/svg"><rect>')
  const publicDir = path.join(dir, 'public-broken')
  await expect(syncMedia([asset], source, publicDir, path.join(dir, 'cache-broken'))).rejects.toThrow(
    `Invalid content: document "${asset._id}": the SVG is not well-formed XML`,
  )
  expect(await readdir(path.join(publicDir, 'media'))).toEqual([])
})

test('a file of a kind the site does not serve as an image fails the build naming its asset document', async () => {
  const page = await localAsset('page.html', '<script>alert(1)</script>', '1x1', 'html')
  await expect(
    syncMedia([page], source, path.join(dir, 'public-html'), path.join(dir, 'cache-html')),
  ).rejects.toThrow(`Invalid content: document "${page._id}", field "_id": names a .html file`)
  expect(await readdir(path.join(dir, 'public-html', 'media'))).toEqual([])
})

test('a GIF is served as uploaded only when it is one', async () => {
  const gif = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#c0ffee' } })
    .gif()
    .toBuffer()
  const real = await localAsset('dot.gif', gif, '2x2', 'gif')
  const fake = await localAsset(
    'fake.gif',
    '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
    '2x2',
    'gif',
  )
  const publicDir = path.join(dir, 'public-gif')
  await syncMedia([real], source, publicDir, path.join(dir, 'cache-gif'))
  expect(await readFile(path.join(publicDir, 'media', `${real.sha1hash}-2x2.gif`))).toEqual(gif)
  await expect(syncMedia([fake], source, publicDir, path.join(dir, 'cache-gif'))).rejects.toThrow(
    `Invalid content: document "${fake._id}": the image cannot be read as a GIF`,
  )
})
