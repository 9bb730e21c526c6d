/**
 * @jest-environment node
 */
import {
  getCaseStudy,
  getCaseStudyCards,
  getCaseStudyPaths,
  getHomePage,
  getMediaAssets,
  getPortfolioSites,
  getSiteSettings,
} from '@/lib/content'
import * as queries from '@/lib/content/queries'
import { runQuery, sourceFromEnv, type ContentSource } from '@/lib/content/source'
import { SEED_FILE, seedDocuments } from '../../helpers/dataset'
import { startSanityStandIn, type StandIn } from '../../helpers/sanityStandIn'

const local: ContentSource = { kind: 'local', file: SEED_FILE }
let standIn: StandIn
let remote: ContentSource

beforeAll(async () => {
  standIn = await startSanityStandIn(seedDocuments())
  remote = {
    kind: 'sanity',
    projectId: 'test0',
    dataset: 'production',
    apiVersion: '2025-02-19',
    apiHost: standIn.url,
  }
})
afterAll(() => standIn.close())

describe('the two content sources give identical results', () => {
  const slugParams = ['how-i-saved-40-hours', 'Osteopath Lancing', 'um-al-hayaa', 'no-such-study']

  test.each(Object.entries(queries))('%s', async (name, query) => {
    const paramSets = name === 'caseStudyQuery' ? slugParams.map((slug) => ({ slug })) : [{}]
    for (const params of paramSets) {
      const fromFile = await runQuery(query, params, local)
      const fromClient = await runQuery(query, params, remote)
      expect(fromClient).toEqual(fromFile)
      if (!('slug' in params && params.slug === 'no-such-study')) expect(fromFile).not.toBeNull()
    }
  })

  test('every query actually went through @sanity/client to the stand-in', () => {
    expect(standIn.requests.length).toBeGreaterThanOrEqual(Object.keys(queries).length)
    expect(standIn.requests.every((line) => line.includes('/data/query/production'))).toBe(true)
  })

  test('the content layer API gives the same props from both sources', async () => {
    for (const get of [
      getSiteSettings,
      getHomePage,
      getCaseStudyCards,
      getCaseStudyPaths,
      getPortfolioSites,
      getMediaAssets,
    ]) {
      expect(await get(remote)).toEqual(await get(local))
    }
    expect(await getCaseStudy('um-al-hayaa', remote)).toEqual(await getCaseStudy('um-al-hayaa', local))
  })
})

describe('sourceFromEnv', () => {
  test('uses the local seed without a project id', () => {
    expect(sourceFromEnv({})).toEqual({ kind: 'local', file: SEED_FILE, perspective: 'published' })
  })

  test('uses Sanity when SANITY_PROJECT_ID is set, with defaults', () => {
    expect(sourceFromEnv({ SANITY_PROJECT_ID: 'abc123', SANITY_READ_TOKEN: 'tok' })).toEqual({
      kind: 'sanity',
      projectId: 'abc123',
      dataset: 'production',
      apiVersion: '2025-02-19',
      token: 'tok',
      apiHost: undefined,
      perspective: 'published',
    })
  })

  test('reading drafts from the Content Lake needs the read token, and says so', async () => {
    const { readAllDocuments } = await import('@/lib/content/source')
    await expect(readAllDocuments({ ...remote, perspective: 'drafts' } as ContentSource)).rejects.toThrow(
      'reading the "drafts" perspective of the Content Lake needs SANITY_READ_TOKEN',
    )
  })
})

describe('what the seed holds (spec §2, §3)', () => {
  test('the home page lists', async () => {
    const home = await getHomePage(local)
    expect(home.services.map((service) => service.title)).toEqual([
      'AI-Powered Websites',
      'AI-Powered Automations',
      'Seamless Integrations',
      'CRM',
      'AI Chatbots',
      'AI Voice Agents',
    ])
    expect(home.audienceCards).toHaveLength(6)
    expect(home.growthItems).toHaveLength(3)
    expect(home.faqs).toHaveLength(4)
    expect(home.stripReviews).toHaveLength(5)
    expect(home.sectionReviews).toHaveLength(4)
    expect([...home.stripReviews, ...home.sectionReviews].every((review) => review.stars === 5)).toBe(true)
  })

  test('three case studies and six portfolio sites, images served from /media', async () => {
    const cards = await getCaseStudyCards(local)
    expect(cards).toHaveLength(3)
    expect(await getPortfolioSites(local)).toHaveLength(6)
    for (const card of cards) expect(card.image.src).toMatch(/^\/media\/[0-9a-f]{40}-\d+x\d+\.svg$/)
  })
})

describe("the build's schema validation reads both sources the same way", () => {
  test('the Content Lake: every document of the published perspective in one query, no draft or version', async () => {
    const { readAllDocuments } = await import('@/lib/content/source')
    const seed = seedDocuments()
    const withDraft = await startSanityStandIn([
      ...seed,
      { ...seed[0]!, _id: `drafts.${seed[0]!._id}` },
      { ...seed[0]!, _id: `versions.rSpring.${seed[0]!._id}` },
    ])
    try {
      const documents = await readAllDocuments({ ...remote, apiHost: withDraft.url } as ContentSource)
      expect(documents.map((doc) => doc._id).sort()).toEqual(seed.map((doc) => doc._id).sort())
      expect(withDraft.calls).toHaveLength(1)
      expect(withDraft.calls[0]?.search.perspective).toBe('published')
    } finally {
      await withDraft.close()
    }
  })

  test('a document that breaks a Studio-only limit fails the build from the Content Lake too', async () => {
    const { validateAllContent } = await import('@/lib/content/content-check')
    const review = seedDocuments().find((doc) => doc._type === 'review')!
    const broken = await startSanityStandIn(
      seedDocuments().map((doc) => (doc._id === review._id ? { ...doc, text: 'Too short.' } : doc)),
    )
    try {
      await expect(validateAllContent({ ...remote, apiHost: broken.url } as ContentSource)).rejects.toThrow(
        `Invalid content: document "${review._id}", field "text": Must be at least 20 characters long`,
      )
    } finally {
      await broken.close()
    }
  })
})
