/**
 * @jest-environment node
 *
 * Which file a content image points at (lib/content/preview-images.ts, image.ts
 * `toDatasetImage`): a build always the media step's copies, whatever public/ holds; an
 * editor's preview the copies when they are all there, else the dataset's own file (the
 * preview process's `/preview-media/<assetId>` for the local dataset, Sanity's CDN for the
 * Content Lake), at the same size so the page does not shift.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { getCaseStudy } from '@/lib/content'
import {
  mediaFileNames,
  RASTER_QUALITY,
  rasterCopies,
  toContentImage,
  toDatasetImage,
  type ProjectedImage,
} from '@/lib/content/image'
import { contentImageOf, previewImageOrigins } from '@/lib/content/preview-images'
import type { ContentSource } from '@/lib/content/source'
import { seedDocuments, writeDataset } from '../../helpers/dataset'

const PHOTO = 'image-0123456789abcdef0123456789abcdef01234567-2000x1000-jpg'
const DRAWING = 'image-89abcdef0123456789abcdef0123456789abcdef-1200x800-svg'

const projected = (assetId: string, width: number, height: number): ProjectedImage => ({
  alt: 'An image',
  hotspot: { x: 0.25, y: 0.5 },
  asset: { _id: assetId, metadata: { dimensions: { width, height } } },
})
const photo = projected(PHOTO, 2000, 1000)
const drawing = projected(DRAWING, 1200, 800)

const LOCAL: ContentSource = { kind: 'local', file: '/nowhere/dataset.ndjson' }
const LAKE: ContentSource = { kind: 'sanity', projectId: 'abc123', dataset: 'production', apiVersion: 'x' }
const preview = (source: ContentSource): ContentSource => ({
  ...source,
  perspective: 'drafts',
  preview: true,
})

let publicDir: string
beforeEach(() => {
  publicDir = mkdtempSync(path.join(os.tmpdir(), 'preview-images-'))
  mkdirSync(path.join(publicDir, 'media'))
})
afterEach(() => rmSync(publicDir, { recursive: true, force: true }))

/** Writes the media step's files of an asset into the test's public/media/ (all, or some). */
const copy = (assetId: string, names = mediaFileNames(assetId)) => {
  for (const name of names) writeFileSync(path.join(publicDir, 'media', name), 'x')
}

describe('toDatasetImage', () => {
  test("the local dataset's: the preview's address by asset id, the size, alt and focus kept, no copies", () => {
    expect(toDatasetImage(photo, { kind: 'local' })).toEqual({
      src: `/preview-media/${PHOTO}`,
      width: 2000,
      height: 1000,
      alt: 'An image',
      focus: { x: 0.25, y: 0.5 },
    })
  })

  test("the Content Lake's: the CDN's URL made from the id, a photo with the CDN's WebP copies at the build's widths", () => {
    const image = toDatasetImage(photo, { kind: 'sanity', projectId: 'abc123', dataset: 'production' })
    const base =
      'https://cdn.sanity.io/images/abc123/production/0123456789abcdef0123456789abcdef01234567-2000x1000.jpg'
    const widths = rasterCopies(PHOTO).map((copy) => copy.width)
    expect(image.srcSet).toBe(
      widths.map((width) => `${base}?w=${width}&fm=webp&q=${RASTER_QUALITY} ${width}w`).join(', '),
    )
    expect(image.src).toBe(`${base}?w=${widths.at(-1)}&fm=webp&q=${RASTER_QUALITY}`)
    expect([image.width, image.height]).toEqual([2000, 1000])
    expect(toDatasetImage(drawing, { kind: 'sanity', projectId: 'abc123', dataset: 'production' })).toEqual({
      ...toContentImage(drawing),
      src: 'https://cdn.sanity.io/images/abc123/production/89abcdef0123456789abcdef0123456789abcdef-1200x800.svg',
    })
  })

  test.each([
    ['../x', 'production'],
    ['abc123', 'a/b'],
    ['abc123', 'evil.example'],
    ['', 'production'],
  ])('a project id or dataset that is not one (%j, %j) is an error', (projectId, dataset) => {
    expect(() => toDatasetImage(photo, { kind: 'sanity', projectId, dataset })).toThrow(/is not a Sanity/)
  })
})

describe('contentImageOf', () => {
  test("a build's image is the media step's copies, never looked for (the export does not change)", async () => {
    for (const source of [LOCAL, LAKE, { ...LOCAL, perspective: 'published' as const }])
      for (const image of [photo, drawing])
        expect(await contentImageOf(image, source, publicDir)).toEqual(toContentImage(image))
  })

  test('in a preview, an image whose copies are all in public/media/ is shown from them', async () => {
    copy(PHOTO)
    copy(DRAWING)
    for (const source of [preview(LOCAL), preview(LAKE), { ...LOCAL, preview: true as const }])
      for (const image of [photo, drawing])
        expect(await contentImageOf(image, source, publicDir)).toEqual(toContentImage(image))
  })

  test('in a preview, an image the build has not copied (or not whole) comes from the dataset, at the same size', async () => {
    copy(PHOTO, mediaFileNames(PHOTO).slice(1))
    expect(await contentImageOf(photo, preview(LOCAL), publicDir)).toEqual(
      toDatasetImage(photo, { kind: 'local' }),
    )
    expect(await contentImageOf(drawing, preview(LAKE), publicDir)).toEqual(
      toDatasetImage(drawing, { kind: 'sanity', projectId: 'abc123', dataset: 'production' }),
    )
    // The published perspective of a preview is still an editor's: the same rule.
    expect((await contentImageOf(drawing, { ...LOCAL, preview: true }, publicDir)).src).toBe(
      `/preview-media/${DRAWING}`,
    )
  })

  test("a draft case study's new image: the dataset's in the preview, while the published page keeps its copy", async () => {
    const documents = seedDocuments()
    const study = documents.find((doc) => doc._type === 'caseStudy')!
    const asset = documents.find(
      (doc) => doc._id === (study.image as { asset: { _ref: string } }).asset._ref,
    )!
    const fresh = { ...asset, _id: PHOTO, metadata: { dimensions: { width: 2000, height: 1000 } } }
    const image = { ...(study.image as object), asset: { _type: 'reference', _ref: PHOTO } }
    const source = writeDataset([...documents, fresh, { ...study, _id: `drafts.${study._id}`, image }])
    const slug = (study.slug as { current: string }).current
    const drafted = await getCaseStudy(slug, preview(source))
    expect(drafted!.image).toMatchObject({ src: `/preview-media/${PHOTO}`, width: 2000, height: 1000 })
    expect(drafted!.image.srcSet).toBeUndefined()
    const published = await getCaseStudy(slug, source)
    expect(published!.image.src).toMatch(/^\/media\//)
  })
})

test("a preview's images may come from Sanity's CDN with the Content Lake only", () => {
  expect(previewImageOrigins(LAKE)).toEqual(['https://cdn.sanity.io'])
  expect(previewImageOrigins(LOCAL)).toEqual([])
})
