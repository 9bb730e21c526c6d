/**
 * @jest-environment node
 *
 * A link in case study text to a page this site does not have fails the build's first step:
 * the Studio schema's rules run over the snapshot (lib/content/schema-rules.ts, through
 * lib/content/content-check.ts), and the error names the document `_id`, the field path in Sanity's
 * notation and the rule's message. Links to the site's pages and to case studies the dataset
 * holds (by slug or legacy id) pass; what counts is the snapshot the build renders, through
 * its perspective.
 */
import { validateAllContent } from '@/lib/content/content-check'
import { assertValidSnapshot, validateSnapshot } from '@/lib/content/schema-rules'
import { readAllDocuments, type StoredDocument } from '@/lib/content/source'
import { ContentError } from '@/lib/content/build-rules'
import { seedDocuments, writeDataset } from '../../helpers/dataset'

const seed = seedDocuments()
const [linking, linked] = seed.filter((doc) => doc._type === 'caseStudy') as [StoredDocument, StoredDocument]
const slugOf = (doc: StoredDocument) => (doc.slug as { current: string }).current

type Block = { _key: string; markDefs?: unknown[]; children: { _key: string; marks: string[] }[] }

/**
 * The seed, with `linking`'s `field` holding one text link to `href` in its first block,
 * as the Studio stores one (a `link` mark definition, and a span that carries it).
 * @returns the documents, and the field path the build names for that link
 */
function withLink(href: string, field = 'outcome', documents = seed) {
  const blocks = structuredClone(linking[field]) as Block[]
  blocks[0]!.markDefs = [{ _type: 'link', _key: 'l1', href }]
  blocks[0]!.children[0]!.marks = ['l1']
  return {
    documents: documents.map((doc) => (doc._id === linking._id ? { ...doc, [field]: blocks } : doc)),
    path: `${field}[_key=="${blocks[0]!._key}"].markDefs[_key=="l1"].href`,
  }
}

/** The snapshot's errors, as `document "id", field "path": message` lines. */
async function errorsOf(documents: StoredDocument[]): Promise<string[]> {
  const { errors } = await validateSnapshot(documents)
  return errors.map((error) => `document "${error.documentId}", field "${error.field}": ${error.problem}`)
}

test('the seed passes (so the failures below are the links)', async () => {
  expect(await errorsOf(seed)).toEqual([])
})

test.each(['issue', 'solution', 'outcome'])(
  'a link in %s to a missing case study fails the build, naming the document and the field',
  async (field) => {
    const { documents, path } = withLink('/case-studies/nope', field)
    expect(await errorsOf(documents)).toEqual([
      `document "${linking._id}", field "${path}": There is no page at /case-studies/nope on this site: ` +
        'link to an existing case study, or to /, /case-studies, /sites or /consultation.',
    ])
    const thrown = await assertValidSnapshot(documents).catch((error: unknown) => error)
    expect(thrown).toBeInstanceOf(ContentError)
    expect((thrown as Error).message).toContain(
      `Invalid content: document "${linking._id}", field "${path}": There is no page at /case-studies/nope`,
    )
  },
)

test("the build's first step (validateAllContent, over a dataset file) refuses it too", async () => {
  const { documents, path } = withLink('/blog?from=text#top')
  await expect(validateAllContent(writeDataset(documents))).rejects.toThrow(
    `Invalid content: document "${linking._id}", field "${path}": There is no page at /blog on this site`,
  )
})

test.each([
  '/',
  '/#contact',
  '/case-studies',
  '/sites',
  '/consultation?from=text',
  `/case-studies/${slugOf(linked)}`,
  `/case-studies/${encodeURIComponent(linked.legacyId as string)}`,
  'https://example.com/blog',
  'mailto:hi@example.co.uk',
])('a link to %s passes', async (href) => {
  expect(await errorsOf(withLink(href).documents)).toEqual([])
})

test('a link to a case study the dataset holds passes; once that case study is gone, the linking one fails', async () => {
  const to = `/case-studies/${encodeURIComponent(linked.legacyId as string)}`
  const { documents, path } = withLink(to)
  expect(await errorsOf(documents)).toEqual([])
  const without = documents.filter((doc) => doc._id !== linked._id)
  expect(await errorsOf(without)).toEqual([
    expect.stringContaining(
      `document "${linking._id}", field "${path}": There is no page at ${to} on this site`,
    ),
  ])
})

test('a case study that exists only as a draft: its page is in a preview of drafts, not on the live site', async () => {
  const draft = {
    ...structuredClone(linked),
    _id: 'drafts.caseStudy-new',
    slug: { _type: 'slug', current: 'bakery-bookings' },
    legacyId: 'bakery-bookings',
  }
  const { documents, path } = withLink('/case-studies/bakery-bookings', 'solution', [...seed, draft])
  const file = writeDataset(documents)
  const published = await readAllDocuments({ ...file, perspective: 'published' })
  const drafts = await readAllDocuments({ ...file, perspective: 'drafts' })
  expect(await errorsOf(published)).toEqual([
    expect.stringContaining(
      `document "${linking._id}", field "${path}": There is no page at /case-studies/bakery-bookings`,
    ),
  ])
  expect(await errorsOf(drafts)).toEqual([])
})
