/**
 * @jest-environment node
 */
import { getCaseStudy, getCaseStudyPaths } from '@/lib/content'
import { validateAllContent } from '@/lib/content/content-check'
import { SEED_FILE, seedDocuments, seedWith, writeDataset } from '../../helpers/dataset'

const local = { kind: 'local', file: SEED_FILE } as const

describe('case study addresses', () => {
  test('each case study has a lowercase slug and the spec id as legacy id', async () => {
    expect(await getCaseStudyPaths(local)).toEqual([
      { slug: 'how-i-saved-40-hours', legacyId: 'How-I-Saved-40-Hours' },
      { slug: 'osteopath-lancing', legacyId: 'Osteopath Lancing' },
      { slug: 'um-al-hayaa', legacyId: 'Um Al Hayaa' },
    ])
  })

  test.each([
    ['osteopath-lancing', 'osteopath-lancing'],
    ['Osteopath Lancing', 'osteopath-lancing'],
    ['How-I-Saved-40-Hours', 'how-i-saved-40-hours'],
    ['Um Al Hayaa', 'um-al-hayaa'],
  ])('%s finds the case study %s', async (address, slug) => {
    expect((await getCaseStudy(address, local))?.slug).toBe(slug)
  })

  test('an unknown id finds nothing', async () => {
    expect(await getCaseStudy('no-such-study', local)).toBeNull()
  })

  test('a slug with capitals or spaces fails, naming document and field', async () => {
    const source = seedWith('caseStudy-um-al-hayaa', (doc) => ({
      ...doc,
      slug: { _type: 'slug', current: 'Um Al Hayaa' },
    }))
    await expect(validateAllContent(source)).rejects.toThrow(
      'document "caseStudy-um-al-hayaa", field "slug": Use lowercase letters, digits and single hyphens only',
    )
  })

  test.each([
    ["a legacy id that is another case study's slug", 'legacyId', { legacyId: 'osteopath-lancing' }],
    ["a legacy id that is another case study's legacy id", 'legacyId', { legacyId: 'Osteopath Lancing' }],
    [
      "a slug that is another case study's slug",
      'slug',
      { slug: { _type: 'slug', current: 'osteopath-lancing' } },
    ],
  ] as const)('%s fails the build (two pages at one address)', async (_, field, change) => {
    const source = seedWith('caseStudy-um-al-hayaa', (doc) => ({ ...doc, ...change }))
    await expect(validateAllContent(source)).rejects.toThrow(
      new RegExp(`document "caseStudy-um-al-hayaa", field "${field}": .*(already|is already in use)`),
    )
  })

  test("a slug that is another case study's legacy id fails the build", async () => {
    const documents = seedDocuments().map((doc) =>
      doc._id === 'caseStudy-um-al-hayaa'
        ? { ...doc, slug: { _type: 'slug', current: 'osteopath-lancing-old' } }
        : doc._id === 'caseStudy-osteopath-lancing'
          ? { ...doc, legacyId: 'osteopath-lancing-old' }
          : doc,
    )
    await expect(validateAllContent(writeDataset(documents))).rejects.toThrow(
      'document "caseStudy-um-al-hayaa", field "slug": "osteopath-lancing-old" is already the address of case study "caseStudy-osteopath-lancing"',
    )
  })

  test("a case study's own slug as its legacy id is fine (new case studies repeat it)", async () => {
    const source = seedWith('caseStudy-um-al-hayaa', (doc) => ({ ...doc, legacyId: 'um-al-hayaa' }))
    await expect(validateAllContent(source)).resolves.toBeTruthy()
  })
})
