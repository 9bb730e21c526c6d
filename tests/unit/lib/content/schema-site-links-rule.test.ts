/**
 * @jest-environment node
 *
 * The rule that a link in text to a path on this site leads to one of its pages
 * (`textLinkHasPage`, studio/schemaTypes/urls.ts): the pages of `SITE_PAGES`, and
 * `/case-studies/{slug or legacy id}` of a case study the dataset holds, asked of the
 * dataset with `context.getClient(...).fetch` as the Studio asks the Content Lake. Here the
 * client is the build's (`snapshotClient`: groq-js over a snapshot), so the query is proven
 * to work where the build runs it.
 */
import { snapshotClient } from '@/lib/content/schema-rules'
import type { StoredDocument } from '@/lib/content/source'
import { caseStudyHref, SITE_PAGES } from '@/studio/schemaTypes/sitePages'
import { textLinkHasPage } from '@/studio/schemaTypes/urls'
import { BAD_PATHS, BAD_URLS } from '../../helpers/badUrls'
import { seedDocuments } from '../../helpers/dataset'

type Context = Parameters<typeof textLinkHasPage>[1]

const seed = seedDocuments()
const seedStudies = seed.filter((doc) => doc._type === 'caseStudy')
const slugOf = (doc: StoredDocument) => (doc.slug as { current: string }).current

/** The rule's context in a dataset of `documents`; `queries` collects what the rule asked. */
function contextOver(documents: StoredDocument[], queries: unknown[] = []): Context {
  const client = snapshotClient(documents)
  const counting = {
    ...client,
    fetch: (query: string, params: Record<string, unknown>) => {
      queries.push(params)
      return client.fetch(query, params)
    },
  }
  return { getClient: () => counting, document: seedStudies[0] } as unknown as Context
}

const check = (href: unknown, documents = seed) => textLinkHasPage(href as string, contextOver(documents))

/** A case study that is not in the seed: only in the dataset the rule is given. */
const newStudy: StoredDocument = {
  ...structuredClone(seedStudies[0]!),
  _id: 'caseStudy-new',
  slug: { _type: 'slug', current: 'bakery-bookings' },
  legacyId: 'Bakery Bookings',
}

const NO_PAGE = (path: string) =>
  `There is no page at ${path} on this site: link to an existing case study, or to /, /case-studies, /sites or /consultation.`

test('the seed has case studies whose legacy id differs from the slug (else the legacy cases prove nothing)', () => {
  expect(seedStudies.length).toBeGreaterThan(1)
  expect(seedStudies.some((doc) => doc.legacyId !== slugOf(doc))).toBe(true)
})

describe('paths that lead to a page', () => {
  test.each(Object.values(SITE_PAGES).map((page) => page.href))(
    '%s (SITE_PAGES), without asking the dataset',
    async (href) => {
      const queries: unknown[] = []
      expect(await textLinkHasPage(href, contextOver(seed, queries))).toBe(true)
      expect(queries).toEqual([])
    },
  )

  test.each(['/?utm=x', '/#reviews', '/#contact', '/consultation?ref=text#book', '/sites#top'])(
    '%s: the query and the fragment are set aside',
    async (href) => {
      expect(await check(href)).toBe(true)
    },
  )

  test.each(seedStudies.map((doc) => [doc._id, doc]))('%s at its slug', async (_, doc) => {
    expect(await check(caseStudyHref(slugOf(doc)))).toBe(true)
    expect(await check(`${caseStudyHref(slugOf(doc))}#outcome`)).toBe(true)
  })

  test.each(seedStudies.map((doc) => [doc._id, doc]))(
    '%s at its legacy id, percent-encoded as in an address',
    async (_, doc) => {
      expect(await check(caseStudyHref(encodeURIComponent(doc.legacyId as string)))).toBe(true)
    },
  )

  test('a case study that is only in the dataset, not in the seed: a page there, none without it', async () => {
    const dataset = [...seed, newStudy]
    expect(await check('/case-studies/bakery-bookings', dataset)).toBe(true)
    expect(await check('/case-studies/Bakery%20Bookings', dataset)).toBe(true)
    expect(await check('/case-studies/bakery-bookings')).toBe(NO_PAGE('/case-studies/bakery-bookings'))
    expect(await check('/case-studies/Bakery%20Bookings')).toBe(NO_PAGE('/case-studies/Bakery%20Bookings'))
  })
})

describe('paths that lead nowhere', () => {
  test.each([
    '/case-studies/nope',
    '/blog',
    '/blog?x=1#y',
    '/studio',
    '/studio/structure/caseStudy',
    '/Sites',
    '/case-studies/UM-AL-HAYAA',
    '/case-studies/Osteopath+Lancing',
    '/case-studies/um-al-hayaa/more',
    '/case-studies/%E0%A4%A',
    '/booking/',
    '/media/x.svg',
  ])('%s', async (href) => {
    expect(await check(href)).toBe(NO_PAGE(href.replace(/[?#].*$/, '')))
  })

  test.each([
    ['/sites/', '/sites'],
    ['/case-studies/', '/case-studies'],
    [`${caseStudyHref(slugOf(seedStudies[0]!))}/`, caseStudyHref(slugOf(seedStudies[0]!))],
  ])('%s: the editor is told to drop the final "/"', async (href, page) => {
    expect(await check(href)).toBe(
      `There is no page at ${href} on this site: remove the "/" at the end (${page}).`,
    )
  })

  test('a case study removed from the dataset takes its addresses with it', async () => {
    const [gone, ...rest] = seedStudies
    const dataset = seed.filter((doc) => doc._id !== gone!._id)
    expect(rest.length).toBeGreaterThan(0)
    expect(await check(caseStudyHref(slugOf(gone!)), dataset)).toBe(NO_PAGE(caseStudyHref(slugOf(gone!))))
    for (const doc of rest) expect(await check(caseStudyHref(slugOf(doc)), dataset)).toBe(true)
  })

  test('a draft or a release version is no page of the live site: only a published case study counts', async () => {
    const draft = { ...newStudy, _id: `drafts.${newStudy._id}` }
    const version = { ...newStudy, _id: `versions.rSpring.${newStudy._id}` }
    expect(await check('/case-studies/bakery-bookings', [...seed, draft, version])).toBe(
      NO_PAGE('/case-studies/bakery-bookings'),
    )
  })
})

describe('what is not a path on this site is left to the other link rules', () => {
  test.each([
    undefined,
    '',
    'https://example.com/blog',
    'mailto:hi@example.co.uk',
    'tel:+442079460321',
    ...BAD_URLS,
    ...BAD_PATHS,
  ])('%j', async (href) => {
    const queries: unknown[] = []
    expect(await textLinkHasPage(href, contextOver(seed, queries))).toBe(true)
    expect(queries).toEqual([])
  })
})
