/**
 * @jest-environment node
 *
 * The build's dependency map (lib/content/reads.ts, lib/content/render-plan.ts): what a
 * page's queries scan, what is recorded, and which pages a change renders again.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { idsIn, recordRead, resultHash, scannedTypes } from '@/lib/content/reads'
import { caseStudyQuery, contentDatesQuery, siteSettingsQuery } from '@/lib/content/queries'
import { runQuery, type StoredDocument } from '@/lib/content/source'
import { validateSnapshot } from '@/lib/content/schema-rules'
import { changedOnly } from '@/site-build/content-step'
import { dependencyMap, documentHashes, planRender, type DependencyMap } from '@/lib/content/render-plan'
import { pagePath, reusePages } from '@/site-build/reuse-pages'
import { seedDocuments } from '../../helpers/dataset'

describe('scannedTypes: the document types a query can read by scanning', () => {
  test.each([
    ['a type and an address', caseStudyQuery, ['caseStudy']],
    ['the singleton', siteSettingsQuery, ['siteSettings']],
    [
      'several lists',
      contentDatesQuery,
      [
        'audienceCard',
        'caseStudy',
        'faq',
        'growthItem',
        'portfolioSite',
        'review',
        'service',
        'siteSettings',
      ],
    ],
    ['`_type in [...]`', '*[_type in ["a", "b"] && x > 1]._id', ['a', 'b']],
    ['a type through `&&` on either side', '*[x == 1 && _type == "a"]', ['a']],
  ])('%s', (_, query, types) => {
    expect(scannedTypes(query, { slug: 'x' })).toEqual(types)
  })

  test.each([
    ['a scan with no type', '*[defined(title)]'],
    ['a type behind `||`', '*[_type == "a" || _type == "b"]'],
    ['a nested scan with no type (references)', '*[_type == "a" && count(*[references(^._id)]) > 0]'],
    ['`*` alone', 'count(*)'],
  ])('%s: any type (null)', (_, query) => {
    expect(scannedTypes(query)).toBeNull()
  })
})

test('idsIn: every _id in a result, found or followed through a reference', () => {
  expect(
    idsIn({ _id: 'a', image: { asset: { _id: 'image-1' } }, list: [{ _id: 'b' }, { name: 'x' }] }),
  ).toEqual(['a', 'b', 'image-1'])
})

test('recordRead writes one line per scope, query and parameters, once', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'reads-'))
  const scope = { route: '/case-studies/[slug]', unit: 'x' }
  recordRead(scope, caseStudyQuery, { slug: 'x' }, { _id: 'caseStudy-x' }, dir)
  recordRead(scope, caseStudyQuery, { slug: 'x' }, { _id: 'caseStudy-x' }, dir)
  recordRead(undefined, siteSettingsQuery, {}, { _id: 'siteSettings' }, dir)
  const lines = readFileSync(path.join(dir, `${process.pid}.ndjson`), 'utf8')
    .trim()
    .split('\n')
  expect(lines.map((line) => JSON.parse(line))).toEqual([
    {
      scope,
      query: caseStudyQuery,
      params: { slug: 'x' },
      hash: resultHash({ _id: 'caseStudy-x' }),
      ids: ['caseStudy-x'],
      types: ['caseStudy'],
    },
    {
      scope: null,
      query: siteSettingsQuery,
      params: {},
      hash: expect.any(String),
      ids: ['siteSettings'],
      types: ['siteSettings'],
    },
  ])
})

test('recordRead refuses a promise: the map must hold what the page received', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'reads-'))
  expect(() => recordRead('always', siteSettingsQuery, {}, Promise.resolve({ _id: 'x' }), dir)).toThrow(
    'is a promise',
  )
})

test('pagePath: a dynamic route page as a path in the build', () => {
  expect(pagePath('/case-studies/[slug]', 'osteopath-lancing')).toBe('case-studies/osteopath-lancing')
  expect(pagePath('/og/[card]', 'case-study-x.png')).toBe('og/case-study-x.png')
  expect(() => pagePath('/a/[b]/[c]', 'x')).toThrow('other than one parameter')
})

describe('planRender: which pages a change renders again', () => {
  const ROUTE = '/case-studies/[slug]'
  const seed = seedDocuments()
  const studies = seed.filter((doc) => doc._type === 'caseStudy')
  const slugOf = (doc: StoredDocument) => (doc.slug as { current: string }).current

  /** The map a full render of `documents` records: settings shared, each case study page its own. */
  async function mapOf(documents: StoredDocument[]): Promise<DependencyMap> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'reads-'))
    const file = path.join(dir, 'dataset.ndjson')
    writeFileSync(file, documents.map((doc) => JSON.stringify(doc)).join('\n'))
    const source = { kind: 'local', file, perspective: 'published' } as const
    const readsDir = path.join(dir, 'reads')
    const record = async (scope: Parameters<typeof recordRead>[0], query: string, params = {}) =>
      recordRead(scope, query, params, await runQuery(query, params, source), readsDir)
    await record(undefined, siteSettingsQuery)
    for (const doc of documents.filter((doc) => doc._type === 'caseStudy'))
      await record({ route: ROUTE, unit: slugOf(doc) }, caseStudyQuery, { slug: slugOf(doc) })
    return dependencyMap(readsDir, documents, 'compile-1', null, {}, {})
  }
  const sourceOf = (documents: StoredDocument[]) => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'snapshot-')), 'dataset.ndjson')
    writeFileSync(file, documents.map((doc) => JSON.stringify(doc)).join('\n'))
    return { kind: 'local', file, perspective: 'published' } as const
  }
  const plan = async (before: StoredDocument[], after: StoredDocument[], key = 'compile-1') =>
    planRender(await mapOf(before), after, sourceOf(after), key)
  const edit = (id: string, change: (doc: StoredDocument) => StoredDocument) =>
    seed.map((doc) => (doc._id === id ? change(doc) : doc))
  // Sorted, as the map keeps them; the first clean page of a route is always rendered again
  // (Next's export needs one page a route), so the plans below keep all but that one.
  const allSlugs = studies.map(slugOf).sort()

  test('a review changed: every case study page but one is taken from the live build, no read runs again', async () => {
    const review = seed.find((doc) => doc._type === 'review')!
    const result = await plan(
      seed,
      edit(review._id, (doc) => ({ ...doc, text: `${doc.text} Again.` })),
    )
    expect(result).toEqual({
      kind: 'partial',
      reuse: { [ROUTE]: allSlugs.slice(1) },
      changed: [review._id],
      rerun: 0,
      differ: 0,
    })
  })

  test("a case study's text changed: its page renders; the others' reads run again and match", async () => {
    const [first] = studies
    const result = await plan(
      seed,
      edit(first!._id, (doc) => ({ ...doc, detailTitle: 'A new title' })),
    )
    expect(result).toMatchObject({ kind: 'partial', changed: [first!._id], rerun: studies.length, differ: 1 })
    expect(result.kind === 'partial' && result.reuse[ROUTE]).toEqual(
      allSlugs.filter((slug) => slug !== slugOf(first!)).slice(1),
    )
  })

  test('a case study unpublished: its page is not kept; the others are', async () => {
    const [first] = studies
    const result = await plan(
      seed,
      seed.filter((doc) => doc._id !== first!._id),
    )
    expect(result.kind === 'partial' && result.reuse[ROUTE]).toEqual(
      allSlugs.filter((slug) => slug !== slugOf(first!)).slice(1),
    )
  })

  test('site settings changed (every page shows them), or another compile: everything renders', async () => {
    expect(
      await plan(
        seed,
        edit('siteSettings', (doc) => ({ ...doc, brandName: 'Other' })),
      ),
    ).toMatchObject({
      kind: 'full',
      reason: expect.stringContaining('every page shares'),
    })
    expect(await plan(seed, seed, 'compile-2')).toMatchObject({
      kind: 'full',
      reason: expect.stringContaining('code'),
    })
    expect(await planRender(null, seed, sourceOf(seed), 'compile-1')).toMatchObject({ kind: 'full' })
  })
})

describe('reusePages: a kept page is every file at its address, copied from the live build', () => {
  const live = mkdtempSync(path.join(os.tmpdir(), 'live-'))
  const files = [
    'case-studies/a.html',
    'case-studies/a.html.br',
    'case-studies/a.txt',
    'case-studies/a/__next.seg.txt',
    'case-studies/ab.html', // another page whose name starts the same
    'case-studies.html', // the list, rendered by every build
    'og/case-study-a.png',
  ]
  for (const file of files) {
    mkdirSync(path.dirname(path.join(live, file)), { recursive: true })
    writeFileSync(path.join(live, file), `bytes of ${file}`)
  }
  const list = (dir: string) =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
      .sort()

  test("copies exactly the kept pages' files, bytes unchanged", async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'out-'))
    const copied = await reusePages(live, out, {
      '/case-studies/[slug]': ['a'],
      '/og/[card]': ['case-study-a.png'],
    })
    const expected = [
      'case-studies/a.html',
      'case-studies/a.html.br',
      'case-studies/a.txt',
      'case-studies/a/__next.seg.txt',
      'og/case-study-a.png',
    ]
    expect(copied).toEqual(expected)
    expect(list(out)).toEqual(expected)
    expect(readFileSync(path.join(out, 'case-studies/a.txt'), 'utf8')).toBe('bytes of case-studies/a.txt')
  })

  test('a kept page the live build lacks, or one Next rendered as well, fails the build', async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'out-'))
    await expect(reusePages(live, out, { '/case-studies/[slug]': ['gone'] })).rejects.toThrow(
      'the live build has no files for case-studies/gone',
    )
    mkdirSync(path.join(out, 'case-studies'), { recursive: true })
    writeFileSync(path.join(out, 'case-studies/a.html'), 'rendered')
    await expect(reusePages(live, out, { '/case-studies/[slug]': ['a'] })).rejects.toThrow('was rendered')
  })
})

describe('changedOnly: what the content check validates again after a publish', () => {
  const seed = seedDocuments()
  let previous: Pick<DependencyMap, 'documents' | 'ruleReads'>
  beforeAll(async () => {
    previous = { documents: documentHashes(seed), ruleReads: (await validateSnapshot(seed)).ruleReads }
  })
  const review = seed.find((doc) => doc._type === 'review')!
  const [study, other] = seed.filter((doc) => doc._type === 'caseStudy')
  const edited = (id: string, change: Partial<StoredDocument>) =>
    seed.map((doc) => (doc._id === id ? { ...doc, ...change } : doc))

  test("the live build's map holds the queries of each case study's address rules", () => {
    const reads = previous.ruleReads[study!._id]!
    expect(reads.length).toBeGreaterThan(0)
    expect(reads.every((read) => read.types?.includes('caseStudy'))).toBe(true)
    expect(Object.keys(previous.ruleReads).every((id) => id.startsWith('caseStudy'))).toBe(true)
  })

  test('a review edited: that review only', () => {
    expect(changedOnly(previous, edited(review._id, { text: `${review.text} Edited.` }))).toEqual(
      new Set([review._id]),
    )
  })

  test('a new review: that review only', () => {
    expect(changedOnly(previous, [...seed, { ...review, _id: 'review-new' }])).toEqual(
      new Set(['review-new']),
    )
  })

  test("a case study's title edited: that case study only (no other rule's result changes)", () => {
    expect(changedOnly(previous, edited(study!._id, { title: 'Edited' }))).toEqual(new Set([study!._id]))
  })

  test("a case study's slug made another's legacy id: the other is validated again too", () => {
    const taken = edited(study!._id, { slug: { _type: 'slug', current: String(other!.legacyId) } })
    expect(changedOnly(previous, taken)).toEqual(new Set([study!._id, other!._id]))
  })

  test('everything when a document was removed, or the live build has no map', () => {
    expect(
      changedOnly(
        previous,
        seed.filter((doc) => doc._id !== review._id),
      ),
    ).toBeNull()
    expect(changedOnly(null, seed)).toBeNull()
  })
})
