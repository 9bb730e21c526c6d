/**
 * @jest-environment node
 */
import { getCaseStudy, getCaseStudyPaths } from '@/lib/content'
import { SEED_FILE, seedWith } from './helpers/dataset'

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
    await expect(getCaseStudyPaths(source)).rejects.toThrow(
      'document "caseStudy-um-al-hayaa", field "slug": must be lowercase letters, digits and hyphens',
    )
  })

  test('two case studies with one address fail', async () => {
    const source = seedWith('caseStudy-um-al-hayaa', (doc) => ({ ...doc, legacyId: 'osteopath-lancing' }))
    await expect(getCaseStudyPaths(source)).rejects.toThrow(
      'document "caseStudy-um-al-hayaa", field "legacyId": "osteopath-lancing" is already the address of "caseStudy-osteopath-lancing"',
    )
  })
})
