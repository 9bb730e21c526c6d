/**
 * @jest-environment node
 */
import { ContentError, getCaseStudyCards, getPortfolioSites, getSiteSettings } from '@/lib/content'
import { validateAllContent } from '@/lib/content/content-check'
import { utimesSync, writeFileSync } from 'node:fs'
import { loadLocalDataset, parseNdjson } from '@/lib/content/source'
import { seedDocuments, seedWith, writeDataset } from '../../helpers/dataset'

const firstOf = (type: string) => {
  const doc = seedDocuments().find((candidate) => candidate._type === type)
  if (!doc) throw new Error(`the seed has no ${type}`)
  return doc
}

describe('invalid content fails the build naming the document and the field', () => {
  // Every rule of the schema is covered by tests/unit/lib/content/schema-rules.test.ts; these are the
  // messages an editor or developer reads for a few common mistakes, through the build's step.
  test('a review with four stars (spec §9: always 5)', async () => {
    const review = firstOf('review')
    const source = seedWith(review._id, (doc) => ({ ...doc, stars: 4 }))
    await expect(validateAllContent(source)).rejects.toThrow(
      `Invalid content: document "${review._id}", field "stars": Must be greater than or equal to 5`,
    )
  })

  test('a service without a title', async () => {
    const service = firstOf('service')
    const source = seedWith(service._id, (doc) => {
      delete doc.title
      return doc
    })
    const error = await validateAllContent(source).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ContentError)
    expect(error).toMatchObject({ documentId: service._id, field: 'title', problem: 'Required' })
  })

  test('several problems are reported together, one line each', async () => {
    const review = firstOf('review')
    const source = seedWith(review._id, (doc) => ({ ...doc, stars: 4, text: 'Too short.' }))
    const error = (await validateAllContent(source).catch((caught: unknown) => caught)) as ContentError
    expect(error.problems.map((problem) => problem.field).sort()).toEqual(['stars', 'text'])
    expect(error.message.split('\n')).toHaveLength(2)
  })

  test('a broken image reference', async () => {
    const site = firstOf('portfolioSite')
    const source = seedWith(site._id, (doc) => ({
      ...doc,
      image: {
        _type: 'image',
        alt: 'A screenshot',
        asset: { _type: 'reference', _ref: 'image-missing-1x1-svg' },
      },
    }))
    await expect(validateAllContent(source)).rejects.toThrow(`document "${site._id}", field "image.asset"`)
  })

  test('an image asset without dimensions (the build rule the schema cannot say)', async () => {
    const site = firstOf('portfolioSite')
    const assetId = (site.image as { asset: { _ref: string } }).asset._ref
    const source = seedWith(assetId, (doc) => ({ ...doc, metadata: {} }))
    await expect(getPortfolioSites(source)).rejects.toThrow(
      `document "${site._id}", field "image": asset "${assetId}" has no dimensions`,
    )
  })

  test('an image whose hotspot lies outside it', async () => {
    const study = firstOf('caseStudy')
    const source = seedWith(study._id, (doc) => ({
      ...doc,
      image: { ...(doc.image as object), hotspot: { _type: 'sanity.imageHotspot', x: 1.2, y: 0.5 } },
    }))
    await expect(validateAllContent(source)).rejects.toThrow(
      `document "${study._id}", field "image": The hotspot lies outside the image (x and y must be from 0 to 1)`,
    )
  })

  test("an image's hotspot reaches the card as its focus (the point a crop keeps in view)", async () => {
    const study = firstOf('caseStudy')
    const hotspot = { _type: 'sanity.imageHotspot', x: 0.2, y: 0.75, width: 0.3, height: 0.3 }
    const source = seedWith(study._id, (doc) => ({ ...doc, image: { ...(doc.image as object), hotspot } }))
    await expect(validateAllContent(source)).resolves.toBeTruthy()
    const card = (await getCaseStudyCards(source)).find((candidate) => candidate._id === study._id)
    expect(card?.image.focus).toEqual({ x: 0.2, y: 0.75 })
  })

  test('an image without alt text', async () => {
    const study = firstOf('caseStudy')
    const source = seedWith(study._id, (doc) => ({ ...doc, image: { ...(doc.image as object), alt: ' ' } }))
    await expect(validateAllContent(source)).rejects.toThrow(`document "${study._id}", field "image.alt"`)
  })

  test('a case study with four steps (spec §3: five or three)', async () => {
    const study = firstOf('caseStudy')
    const source = seedWith(study._id, (doc) => ({ ...doc, details: ['a', 'b', 'c', 'd'] }))
    await expect(validateAllContent(source)).rejects.toThrow(
      `document "${study._id}", field "details": Give three or five steps`,
    )
  })

  test('a draft never fails the build: the site shows published documents only', async () => {
    const review = firstOf('review')
    const documents = [...seedDocuments(), { ...review, _id: `drafts.${review._id}`, stars: 1, text: 'x' }]
    await expect(validateAllContent(writeDataset(documents))).resolves.toBeTruthy()
  })
})

describe('missing content fails clearly instead of exporting empty pages', () => {
  test('no case studies', async () => {
    const source = writeDataset(seedDocuments().filter((doc) => doc._type !== 'caseStudy'))
    await expect(getCaseStudyCards(source)).rejects.toThrow('the dataset has no case studies')
  })

  test('no site settings', async () => {
    const source = writeDataset(seedDocuments().filter((doc) => doc._type !== 'siteSettings'))
    await expect(getSiteSettings(source)).rejects.toThrow('the dataset has no siteSettings document')
  })
})

describe('parseNdjson', () => {
  test('names the file and line of a broken line', () => {
    expect(() => parseNdjson('{"_id":"a","_type":"faq"}\n{oops}\n', 'data.ndjson')).toThrow(
      /^data\.ndjson:2: not valid JSON/,
    )
  })

  test('needs _id and _type', () => {
    expect(() => parseNdjson('{"_type":"faq"}', 'data.ndjson')).toThrow(
      'data.ndjson:1: a document needs string "_id" and "_type" fields',
    )
  })
})

describe('loadLocalDataset', () => {
  test('sees an edit to the file without a restart (next dev)', async () => {
    const { file } = writeDataset([{ _id: 'faq-a', _type: 'faq' }])
    expect(await loadLocalDataset(file)).toHaveLength(1)
    writeFileSync(file, '{"_id":"faq-a","_type":"faq"}\n{"_id":"faq-b","_type":"faq"}\n')
    utimesSync(file, new Date(), new Date(Date.now() + 5000))
    expect(await loadLocalDataset(file)).toHaveLength(2)
  })
})
