/**
 * @jest-environment node
 *
 * A preview build reads the dataset through Sanity's `drafts` perspective: in the local
 * dataset a `drafts.<id>` document replaces `<id>` (lib/content/source.ts), as the Content
 * Lake answers with that perspective; the banner lists the drafts; the contact form of a
 * preview posts where nothing is kept. Release versions: content-releases.test.ts.
 */
import { getHomePage, getPreviewDrafts, getSiteSettings } from '@/lib/content'
import { validateAllContent } from '@/lib/content/check'
import { perspectiveFromEnv, sourceFromEnv, withPerspective, type StoredDocument } from '@/lib/content/source'
import { PREVIEW_CONTACT_PATH } from '@/lib/preview'
import { seedDocuments, writeDataset } from './helpers/dataset'

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

test("a preview build's pages show the draft; the published build does not", async () => {
  const text = 'A draft of this review, not yet published.'
  const { file } = writeDataset([...seed, { ...review, _id: `drafts.${review._id}`, text }])
  const texts = async (perspective: 'published' | 'drafts') =>
    (await getHomePage({ kind: 'local', file, perspective })).sectionReviews.map((item) => item.text)
  expect(await texts('drafts')).toContain(text)
  expect(await texts('published')).not.toContain(text)
  // The preview is validated like every build.
  await expect(validateAllContent({ kind: 'local', file, perspective: 'drafts' })).resolves.toBeTruthy()
})

test('the banner lists the drafts, newest first, by their published id', async () => {
  const { file } = writeDataset([
    ...seed,
    { ...review, _id: `drafts.${review._id}`, _updatedAt: '2026-11-26T10:00:00Z' },
    {
      ...seed.find((doc) => doc._type === 'caseStudy')!,
      _id: 'drafts.caseStudy-new',
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

test("CONTENT_PERSPECTIVE: published, drafts or a release's id; anything else refused by name", () => {
  expect(sourceFromEnv({ CONTENT_PERSPECTIVE: 'drafts' }).perspective).toBe('drafts')
  expect(sourceFromEnv({}).perspective).toBe('published')
  expect(perspectiveFromEnv(' published ')).toBe('published')
  // A release reads as the Studio shows it: its versions over drafts over published documents.
  expect(sourceFromEnv({ CONTENT_PERSPECTIVE: 'rSpring' }).perspective).toEqual(['rSpring', 'drafts'])
  expect(sourceFromEnv({ SANITY_PROJECT_ID: 'abc123', CONTENT_PERSPECTIVE: 'rSpring' }).perspective).toEqual([
    'rSpring',
    'drafts',
  ])
  for (const bad of ['raw', 'draft', 'previewDrafts', 'versions.rSpring', 'rSpring,drafts', 'r'])
    expect(() => sourceFromEnv({ CONTENT_PERSPECTIVE: bad })).toThrow(
      `CONTENT_PERSPECTIVE must be "published", "drafts" or a content release's id (e.g. "rSpring"), not "${bad}"`,
    )
})
