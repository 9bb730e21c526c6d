/**
 * @jest-environment node
 *
 * A source through Sanity's `drafts` perspective, as editors' preview server passes one
 * per request (lib/content/page-source.ts): in the local dataset a `drafts.<id>` document
 * replaces `<id>` (lib/content/source.ts), as the Content Lake answers with that
 * perspective; the banner lists the drafts; the contact form of a preview posts where
 * nothing is kept. The build's source, from the environment, is always `published`.
 * Release versions: tests/unit/lib/content/releases.test.ts.
 */
import { getHomePage, getPreviewDrafts, getSiteSettings } from '@/lib/content'
import { validateAllContent } from '@/lib/content/content-check'
import { isPublishedId, sourceFromEnv, withPerspective, type StoredDocument } from '@/lib/content/source'
import { PREVIEW_CONTACT_PATH } from '@/lib/publisher-routes'
import { seedDocuments, writeDataset } from '../../helpers/dataset'

const seed = seedDocuments()
const review = seed.find((doc) => doc._type === 'review' && doc.placement !== 'strip')!

test('drafts: a draft takes its published document place, under the published id', () => {
  const draft = { ...review, _id: `drafts.${review._id}`, text: 'A draft of this review, not yet published.' }
  const fresh = { ...review, _id: 'drafts.review-new', name: 'New Reviewer' }
  const docs: StoredDocument[] = [...seed, draft, fresh, { ...review, _id: `versions.r1.${review._id}` }]
  const seen = withPerspective(docs, 'drafts')
  expect(seen.find((doc) => doc._id === review._id)).toMatchObject({
    text: draft.text,
    _originalId: draft._id,
  })
  expect(seen.find((doc) => doc._id === 'review-new')).toMatchObject({ name: 'New Reviewer' })
  expect(seen.some((doc) => doc._id.startsWith('drafts.') || doc._id.startsWith('versions.'))).toBe(false)
  expect(seen).toHaveLength(seed.length + 1)
  // The published perspective gives the published documents as stored, nothing else.
  expect(withPerspective(docs, 'published')).toEqual(seed)
  // The raw perspective gives every document as stored.
  expect(withPerspective(docs, 'raw')).toBe(docs)
})

test("pages read through `drafts` show the draft; through `published`, the build's, they do not", async () => {
  const text = 'A draft of this review, not yet published.'
  const { file } = writeDataset([...seed, { ...review, _id: `drafts.${review._id}`, text }])
  const texts = async (perspective: 'published' | 'drafts') =>
    (await getHomePage({ kind: 'local', file, perspective })).sectionReviews.map((item) => item.text)
  expect(await texts('drafts')).toContain(text)
  expect(await texts('published')).not.toContain(text)
  // The schema's rules and the build's own run on what a drafts source shows, too.
  await expect(validateAllContent({ kind: 'local', file, perspective: 'drafts' })).resolves.toBeTruthy()
})

test('the banner lists the drafts, newest first, by their published id', async () => {
  const { file } = writeDataset([
    ...seed,
    { ...review, _id: `drafts.${review._id}`, _updatedAt: '2026-11-26T10:00:00Z' },
    {
      ...seed.find((doc) => doc._type === 'caseStudy')!,
      _id: 'drafts.caseStudy-new',
      // Its own addresses: a copy's would break the rule that keeps them apart, and not be shown.
      slug: { _type: 'slug', current: 'a-new-case-study' },
      legacyId: 'A New Case Study',
      _updatedAt: '2026-11-26T11:00:00Z',
    },
  ])
  expect(await getPreviewDrafts({ kind: 'local', file, perspective: 'drafts' })).toEqual([
    { id: 'caseStudy-new', type: 'caseStudy', title: expect.any(String) },
    { id: review._id, type: 'review', title: review.name },
  ])
  expect(await getPreviewDrafts({ kind: 'local', file })).toEqual([])
})

test("a preview's contact form posts where nothing is kept; the live one is untouched", async () => {
  const { file } = writeDataset(seed)
  expect((await getSiteSettings({ kind: 'local', file, perspective: 'drafts' })).contactWebhookUrl).toBe(
    PREVIEW_CONTACT_PATH,
  )
  expect((await getSiteSettings({ kind: 'local', file })).contactWebhookUrl).toBe('/api/contact')
})

test('the build reads published documents, whatever CONTENT_PERSPECTIVE says', async () => {
  const text = 'A draft of this review, not yet published.'
  const { file } = writeDataset([...seed, { ...review, _id: `drafts.${review._id}`, text }])
  for (const env of [{}, { CONTENT_PERSPECTIVE: 'drafts' }, { CONTENT_PERSPECTIVE: 'rSpring' }]) {
    const source = sourceFromEnv({ ...env, LOCAL_DATASET: file })
    expect(source).toEqual({ kind: 'local', file, perspective: 'published' })
    expect((await getHomePage(source)).sectionReviews.map((item) => item.text)).not.toContain(text)
    expect(await getPreviewDrafts(source)).toEqual([])
    expect((await getSiteSettings(source)).contactWebhookUrl).toBe('/api/contact')
  }
  const lake = { SANITY_PROJECT_ID: 'abc123', SANITY_READ_TOKEN: 'tok', CONTENT_PERSPECTIVE: 'drafts' }
  expect(sourceFromEnv(lake).perspective).toBe('published')
})

test('only a published document id is one whose publishing builds the site', () => {
  expect(isPublishedId('caseStudy-osteopath')).toBe(true)
  expect(isPublishedId('drafts.caseStudy-osteopath')).toBe(false)
  expect(isPublishedId('versions.rSpring.caseStudy-osteopath')).toBe(false)
  expect(() => isPublishedId('not an id')).toThrow()
})
