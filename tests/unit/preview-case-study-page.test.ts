/**
 * @jest-environment node
 *
 * The case study page in an editor's preview (draft mode, drafts perspective): a case
 * study missing from the preview's view is Next's 404 page, status 404, as the export
 * answers visitors; a draft-only case study that breaks a rule is missing; a valid one shows.
 */
jest.mock('next/headers', () => ({
  draftMode: async () => ({ isEnabled: true }),
  cookies: async () => ({ get: () => undefined }),
}))
// Only the build writes public/media/: the image stays as the content layer gives it.
jest.mock('@/lib/content/inline-image', () => ({
  ...jest.requireActual('@/lib/content/inline-image'),
  inlineIfSmall: async (image: unknown) => image,
}))

import { renderToStaticMarkup } from 'react-dom/server'
import CaseStudyPage, { generateMetadata } from '@/app/(site)/case-studies/[slug]/page'
import { seedDocuments, writeDataset } from './helpers/dataset'

const seed = seedDocuments()
const study = seed.find((doc) => doc._type === 'caseStudy')!
const draft = (slug: string, title: string) => ({
  ...study,
  _id: `drafts.caseStudy-${slug}`,
  slug: { _type: 'slug', current: slug },
  legacyId: slug,
  title,
  detailTitle: `${title}, in detail`,
})

const env = { ...process.env }
beforeAll(() => {
  process.env.LOCAL_DATASET = writeDataset([
    ...seed,
    draft('draft-valid', 'A draft case study <script>alert(1)</script>'),
    draft('draft-invalid', ''),
  ]).file
})
afterAll(() => {
  process.env = env
})

const params = (slug: string) => ({ params: Promise.resolve({ slug }) })
const notFound = { digest: 'NEXT_HTTP_ERROR_FALLBACK;404' }

test('an unknown case study is the 404 page in the preview too', async () => {
  await expect(CaseStudyPage(params('no-such-study'))).rejects.toMatchObject(notFound)
  await expect(generateMetadata(params('no-such-study'))).rejects.toMatchObject(notFound)
})

test('a draft-only case study that breaks a rule is not there: 404', async () => {
  await expect(CaseStudyPage(params('draft-invalid'))).rejects.toMatchObject(notFound)
})

test('a valid draft-only case study shows, its HTML-looking text as text', async () => {
  const html = renderToStaticMarkup(await CaseStudyPage(params('draft-valid')))
  expect(html).toContain('A draft case study &lt;script&gt;alert(1)&lt;/script&gt;, in detail')
  expect(html).not.toContain('<script>alert(1)')
})
