/**
 * @jest-environment node
 *
 * `getMediaAssets` finds the image assets content references the way GROQ's
 * `references()` does (at any depth, weak references too), without asking every
 * document about every asset.
 */
import { getMediaAssets } from '@/lib/content'
import { referencedIds, runQuery, type StoredDocument } from '@/lib/content/source'
import { SEED_FILE, seedDocuments, writeDataset } from '../../helpers/dataset'

/** The definition the build's asset list must agree with, evaluated by groq-js. */
const BY_REFERENCES = `*[_type == "sanity.imageAsset" && count(*[references(^._id)]) > 0]{
  _id, url, path, extension, originalFilename, sha1hash
}`

const asset = (id: string): StoredDocument => ({
  _id: id,
  _type: 'sanity.imageAsset',
  url: `https://cdn.sanity.io/images/p/d/${id}.png`,
  path: `images/p/d/${id}.png`,
  extension: 'png',
  originalFilename: `${id}.png`,
  sha1hash: id,
})

describe('referencedIds', () => {
  test('finds references at any depth, in arrays and objects, weak ones too', () => {
    const docs: StoredDocument[] = [
      {
        _id: 'a',
        _type: 'caseStudy',
        cover: { _type: 'image', asset: { _type: 'reference', _ref: 'img-1' } },
      },
      {
        _id: 'b',
        _type: 'caseStudy',
        body: [
          { _type: 'block', children: [{ _type: 'span', text: 'x' }] },
          { nested: [{ _ref: 'img-2', _weak: true }] },
        ],
      },
      { _id: 'c', _type: 'review', text: '_ref img-3 is text, not a reference', ref: 'img-4' },
    ]
    expect([...referencedIds(docs)].sort()).toEqual(['img-1', 'img-2'])
  })
})

describe('getMediaAssets', () => {
  test('on the seed: the same assets, in the same order, as references()', async () => {
    const source = { kind: 'local' as const, file: SEED_FILE }
    const expected = (await runQuery(BY_REFERENCES, {}, source)) as { _id: string }[]
    expect(expected.length).toBeGreaterThan(0)
    expect(await getMediaAssets(source)).toEqual(expected)
  })

  test('leaves out an asset no document references, keeps one referenced deep in text', async () => {
    const docs = seedDocuments()
    const study = docs.find((doc) => doc._type === 'caseStudy')!
    study.extra = [{ _key: 'k', nested: { image: { asset: { _ref: 'image-deep-png' } } } }]
    const source = writeDataset([...docs, asset('image-deep-png'), asset('image-orphan-png')])
    const ids = (await getMediaAssets(source)).map((each) => each._id)
    expect(ids).toContain('image-deep-png')
    expect(ids).not.toContain('image-orphan-png')
    expect(ids).toEqual(
      ((await runQuery(BY_REFERENCES, {}, source)) as { _id: string }[]).map((each) => each._id),
    )
  })
})
