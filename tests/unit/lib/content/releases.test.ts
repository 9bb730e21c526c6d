/**
 * @jest-environment node
 *
 * Drafts, content releases' versions and published documents are told apart by Sanity's
 * perspectives only, in lib/content/source.ts, the same way for the local dataset and the
 * Content Lake: `published` shows no `drafts.` and no `versions.` document; `drafts` puts
 * drafts over published documents; a release (`[releaseId, 'drafts']`) puts its versions
 * over drafts over published documents. The queries filter none of them themselves, and
 * validation sees exactly what the source's perspective shows. The build's source is
 * always `published`; editors' preview server passes drafts or a release stack in the
 * `ContentSource` it gives the same functions (lib/content/page-source.ts).
 */
import {
  getCaseStudy,
  getCaseStudyCards,
  getCaseStudyDates,
  getCaseStudyPaths,
  getContentDates,
  getHomePage,
  getMediaAssets,
  getPortfolioSites,
  getPreviewDrafts,
  getSiteSettings,
} from '@/lib/content'
import { validateAllContent } from '@/lib/content/content-check'
import * as queries from '@/lib/content/queries'
import {
  readAllDocuments,
  runQuery,
  withPerspective,
  type ContentSource,
  type Perspective,
  type StoredDocument,
} from '@/lib/content/source'
import { seedDocuments, writeDataset } from '../../helpers/dataset'
import { startSanityStandIn, type StandIn } from '../../helpers/sanityStandIn'

const seed = seedDocuments()
// A review the home page's Reviews section shows.
const review = seed.find((doc) => doc._type === 'review' && doc.placement !== 'strip')!
const study = seed.find((doc) => doc._type === 'caseStudy')!

const RELEASE = 'rSpring'
const inRelease: Perspective = [RELEASE, 'drafts']
const MARK = {
  release: 'MARKER-RELEASE: the spring release text of this review, not yet published.',
  draft: 'MARKER-DRAFT: the draft text of this review, not yet published either.',
  other: 'MARKER-AUTUMN: another release text of this review, never in the spring one.',
  fresh: 'MARKER-FRESH: a review that exists in the spring release only.',
}

/** The seed plus a draft and release versions, as Sanity's export writes them. */
const stored: StoredDocument[] = [
  ...seed,
  { ...review, _id: `versions.${RELEASE}.${review._id}`, text: MARK.release },
  { ...review, _id: `drafts.${review._id}`, text: MARK.draft },
  { ...review, _id: `versions.rAutumn.${review._id}`, text: MARK.other },
  { ...review, _id: `versions.${RELEASE}.review-spring-only`, name: 'Spring Reviewer', text: MARK.fresh },
  // A release that moves a case study to a new address: its route must not exist live.
  {
    ...study,
    _id: `versions.${RELEASE}.${study._id}`,
    slug: { _type: 'slug', current: 'marker-release-address' },
  },
]

const byId = (docs: StoredDocument[]) => new Map(docs.map((doc) => [doc._id, doc]))
const unpublishedIds = (docs: { _id: string }[]) =>
  docs.map((doc) => doc._id).filter((id) => id.startsWith('drafts.') || id.startsWith('versions.'))

describe('withPerspective: the local dataset as the Content Lake shows it', () => {
  test('published: no draft and no release version, the published documents as stored', () => {
    const seen = withPerspective(stored, 'published')
    expect(seen).toEqual(seed)
    expect(unpublishedIds(seen)).toEqual([])
  })

  test('drafts: the draft over the published document, never a release version', () => {
    const seen = byId(withPerspective(stored, 'drafts'))
    expect(seen.get(review._id)).toMatchObject({ text: MARK.draft, _originalId: `drafts.${review._id}` })
    expect(seen.get(study._id)).toEqual(study)
    expect(seen.has('review-spring-only')).toBe(false)
    expect(unpublishedIds([...seen.values()])).toEqual([])
    expect(seen.size).toBe(seed.length)
  })

  test("a release: its version over the draft over the published document; other releases' never", () => {
    const seen = byId(withPerspective(stored, inRelease))
    expect(seen.get(review._id)).toMatchObject({
      text: MARK.release,
      _originalId: `versions.${RELEASE}.${review._id}`,
    })
    expect(seen.get('review-spring-only')).toMatchObject({
      text: MARK.fresh,
      _originalId: `versions.${RELEASE}.review-spring-only`,
    })
    expect((seen.get(study._id)?.slug as { current: string }).current).toBe('marker-release-address')
    expect(JSON.stringify([...seen.values()])).not.toContain('MARKER-AUTUMN')
    expect(unpublishedIds([...seen.values()])).toEqual([])
    expect(seen.size).toBe(seed.length + 1)
  })

  test("a stack's first layer wins; without drafts in it, a draft is not shown", () => {
    const text = (perspective: Perspective) =>
      byId(withPerspective(stored, perspective)).get(review._id)?.text
    expect(text(['rAutumn', RELEASE, 'drafts'])).toBe(MARK.other)
    expect(text([RELEASE, 'rAutumn'])).toBe(MARK.release)
    expect(text(['drafts', RELEASE])).toBe(MARK.draft)
    expect(text(['rWinter'])).toBe(review.text)
  })

  test('a draft of a document never published shows under drafts and a release only', () => {
    const fresh = { ...review, _id: 'drafts.review-draft-only', name: 'Draft Reviewer' }
    const ids = (perspective: Perspective) =>
      withPerspective([...stored, fresh], perspective).map((d) => d._id)
    expect(ids('published')).not.toContain('review-draft-only')
    expect(ids('drafts')).toContain('review-draft-only')
    expect(ids(inRelease)).toContain('review-draft-only')
    expect(ids([RELEASE])).not.toContain('review-draft-only')
  })
})

describe("the site's queries over a local dataset with drafts and release versions", () => {
  const source = (perspective: Perspective): ContentSource => ({ ...writeDataset(stored), perspective })
  const paramsOf = (name: string) => (name === 'caseStudyQuery' ? { slug: String(study.legacyId) } : {})

  test.each(Object.entries(queries))(
    '%s: under published, no draft and no release version',
    async (name, query) => {
      const text = JSON.stringify(await runQuery(query, paramsOf(name), source('published')))
      expect(text).not.toMatch(/MARKER-|"drafts\.|"versions\.|marker-release-address/)
    },
  )

  test('under drafts, the draft and no release version; under the release, its version', async () => {
    const home = async (perspective: Perspective) =>
      JSON.stringify(await runQuery(queries.homePageQuery, {}, source(perspective)))
    const drafts = await home('drafts')
    expect(drafts).toContain(MARK.draft)
    expect(drafts).not.toMatch(/MARKER-(RELEASE|AUTUMN|FRESH)/)
    const release = await home(inRelease)
    expect(release).toContain(MARK.release)
    expect(release).toContain(MARK.fresh)
    expect(release).not.toMatch(/MARKER-(DRAFT|AUTUMN)/)
  })
})

describe('a release version never reaches the live build', () => {
  // Every read the pages, the sitemap and the media step make, as a published build makes them.
  async function everythingPagesRead(source: ContentSource) {
    const paths = await getCaseStudyPaths(source)
    const studies = []
    for (const { slug, legacyId } of paths)
      studies.push(await getCaseStudy(slug, source), await getCaseStudy(legacyId, source))
    return {
      settings: await getSiteSettings(source),
      home: await getHomePage(source),
      cards: await getCaseStudyCards(source),
      paths,
      studies,
      releaseAddress: await getCaseStudy('marker-release-address', source),
      portfolio: await getPortfolioSites(source),
      dates: await getContentDates(source),
      studyDates: await getCaseStudyDates(source),
      media: await getMediaAssets(source),
      banner: await getPreviewDrafts(source),
    }
  }

  test('the pages read over the seed plus versions and a draft hold none of their text', async () => {
    const live = await everythingPagesRead(writeDataset(stored))
    expect(JSON.stringify(live)).not.toMatch(/MARKER-|drafts\.|versions\.|marker-release-address/)
    expect(live.releaseAddress).toBeNull()
    expect(live.banner).toEqual([])
    // The same reads over the seed alone: the versions and the draft change nothing.
    expect(live).toEqual(await everythingPagesRead(writeDataset(seed)))
  })

  test('the release preview shows them, and its banner lists what it shows', async () => {
    const preview = await everythingPagesRead({ ...writeDataset(stored), perspective: inRelease })
    expect(preview.paths.map((path) => path.slug)).toContain('marker-release-address')
    expect(JSON.stringify(preview.home)).toContain(MARK.release)
    expect(preview.banner.map((entry) => entry.id).sort()).toEqual(
      [review._id, study._id, 'review-spring-only'].sort(),
    )
    const drafts = await getPreviewDrafts({ ...writeDataset(stored), perspective: 'drafts' })
    expect(drafts.map((entry) => entry.id)).toEqual([review._id])
  })
})

describe("validation sees exactly what the source's perspective shows", () => {
  const broken = { ...review, stars: 1, text: 'Too short.' }

  test('an invalid release version fails neither published nor drafts; it fails its release', async () => {
    const file = writeDataset([...seed, { ...broken, _id: `versions.${RELEASE}.${review._id}` }]).file
    await expect(validateAllContent({ kind: 'local', file })).resolves.toBeTruthy()
    await expect(validateAllContent({ kind: 'local', file, perspective: 'drafts' })).resolves.toBeTruthy()
    await expect(validateAllContent({ kind: 'local', file, perspective: inRelease })).rejects.toThrow(
      `Invalid content: document "versions.${RELEASE}.${review._id}", field "stars": Must be greater than or equal to 5`,
    )
  })

  test('an invalid draft fails through drafts, naming the draft; the published build passes', async () => {
    const file = writeDataset([...seed, { ...broken, _id: `drafts.${review._id}` }]).file
    await expect(validateAllContent({ kind: 'local', file })).resolves.toBeTruthy()
    await expect(validateAllContent({ kind: 'local', file, perspective: 'drafts' })).rejects.toThrow(
      `Invalid content: document "drafts.${review._id}", field "text": Must be at least 20 characters long`,
    )
  })

  test('a published document the release replaces is not validated through the release', async () => {
    const fixed = { ...review, _id: `versions.${RELEASE}.${review._id}` }
    const file = writeDataset([...seed.map((doc) => (doc._id === review._id ? broken : doc)), fixed]).file
    await expect(validateAllContent({ kind: 'local', file, perspective: inRelease })).resolves.toBeTruthy()
    await expect(validateAllContent({ kind: 'local', file })).rejects.toThrow(`document "${review._id}"`)
  })
})

describe('the Content Lake: the same perspective, through the client', () => {
  let standIn: StandIn
  const lake = (perspective: Perspective): ContentSource => ({
    kind: 'sanity',
    projectId: 'test0',
    dataset: 'production',
    apiVersion: '2025-02-19',
    token: 'read-token',
    apiHost: standIn.url,
    perspective,
  })
  const file = (perspective: Perspective): ContentSource => ({ ...writeDataset(stored), perspective })
  const sortById = (docs: StoredDocument[]) => [...docs].sort((a, b) => a._id.localeCompare(b._id))

  beforeAll(async () => {
    standIn = await startSanityStandIn(stored)
  })
  afterAll(() => standIn.close())

  test.each([
    ['published', 'published'],
    ['drafts', 'drafts'],
    [inRelease, `${RELEASE},drafts`],
  ] as [Perspective, string][])('%j: sent to the API as perspective=%s', async (perspective, sent) => {
    const before = standIn.calls.length
    const documents = await readAllDocuments(lake(perspective))
    const [call, ...more] = standIn.calls.slice(before)
    expect(more).toEqual([])
    expect(call?.search.perspective).toBe(sent)
    // No filter of ours: the perspective alone decides.
    expect(call?.search.query).not.toMatch(/drafts|versions/)
    // The schema validation's snapshot keeps the image assets.
    expect(documents.some((doc) => doc._type === 'sanity.imageAsset')).toBe(true)
    expect(sortById(documents)).toEqual(sortById(await readAllDocuments(file(perspective))))
    expect(await runQuery(queries.homePageQuery, {}, lake(perspective))).toEqual(
      await runQuery(queries.homePageQuery, {}, file(perspective)),
    )
  })

  test('an invalid release version fails no published build from the Content Lake either', async () => {
    const withBroken = await startSanityStandIn([
      ...seed,
      { ...review, _id: `versions.${RELEASE}.${review._id}`, stars: 1 },
    ])
    try {
      const source = { ...lake('published'), apiHost: withBroken.url } as ContentSource
      await expect(validateAllContent(source)).resolves.toBeTruthy()
      await expect(validateAllContent({ ...source, perspective: inRelease })).rejects.toThrow(
        `document "versions.${RELEASE}.${review._id}", field "stars"`,
      )
    } finally {
      await withBroken.close()
    }
  })

  test('a release, like drafts, needs the read token', async () => {
    await expect(readAllDocuments({ ...lake(inRelease), token: undefined } as ContentSource)).rejects.toThrow(
      `reading the "${RELEASE},drafts" perspective of the Content Lake needs SANITY_READ_TOKEN`,
    )
  })
})
