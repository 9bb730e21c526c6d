/**
 * @jest-environment node
 *
 * Drafts pass the site's rules before they render (lib/content/draft-vetting.ts): through
 * a preview perspective, each draft and release version goes through the Studio schema's
 * rules, the build's; one that breaks a rule is replaced by its published version, or is
 * not there at all, for every query; the banner is told which and why. Verdicts are kept
 * per revision, so a render stays fast.
 */
import {
  getCaseStudy,
  getCaseStudyCards,
  getHomePage,
  getPreviewDrafts,
  getPreviewProblems,
  getSiteSettings,
} from '@/lib/content'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { stegaClean } from '@sanity/client/stega'
import { vercelStegaCombine } from '@vercel/stega'
import { PreviewBanner } from '@/components/layout/PreviewBanner'
import { draftsValidated, MAX_PREVIEW_DRAFT_BYTES, ruleReadsChecked } from '@/lib/content/draft-vetting'
import { TITLE_LENGTH } from '@/lib/content/draft-title'
import {
  readAllDocuments,
  runQuery,
  type ContentSource,
  type Perspective,
  type StoredDocument,
} from '@/lib/content/source'
import { siteSettingsQuery } from '@/lib/content/queries'
import { readFileSync, writeFileSync } from 'node:fs'
import { seedDocuments, writeDataset } from '../../helpers/dataset'
import { standInSource, startSanityStandIn } from '../../helpers/sanityStandIn'
import { chainedDrafts } from '@/scripts/audit/draft-chain'

const seed = seedDocuments()
const settings = seed.find((doc) => doc._type === 'siteSettings')!
// A review the home page's Reviews section shows.
const review = seed.find((doc) => doc._type === 'review' && doc.placement !== 'strip')!
const study = seed.find((doc) => doc._type === 'caseStudy')!

const local = (docs: StoredDocument[], perspective: Perspective = 'drafts'): ContentSource => ({
  ...writeDataset(docs),
  perspective,
  preview: true,
})

describe('a settings draft with an unsafe address never reaches the view', () => {
  test.each([
    ['bookingScriptUrl', 'data:text/javascript,alert(1)'],
    ['bookingScriptUrl', 'javascript:alert(1)'],
    ['bookingWidgetUrl', 'http://evil.example/'],
    ['contactWebhookUrl', 'javascript:alert(1)'],
  ])('%s: %s', async (field, url) => {
    const source = local([
      ...seed,
      { ...settings, _id: 'drafts.siteSettings', brandName: 'Draft Brand', [field]: url },
    ])
    const shown = await runQuery(siteSettingsQuery, {}, source)
    expect(JSON.stringify(shown)).not.toContain(url)
    expect(shown?.brandName).toBe(settings.brandName)
    const problems = await getPreviewProblems(source)
    expect(problems.length).toBeGreaterThan(0)
    for (const problem of problems)
      expect(problem).toMatchObject({
        documentId: 'drafts.siteSettings',
        title: 'Draft Brand',
        field,
        path: field,
        shown: 'published',
      })
  })

  test('a valid settings draft shows, and the banner has nothing to say', async () => {
    const source = local([...seed, { ...settings, _id: 'drafts.siteSettings', brandName: 'Draft Brand' }])
    expect((await getSiteSettings(source)).brandName).toBe('Draft Brand')
    expect(await getPreviewProblems(source)).toEqual([])
  })
})

describe('a review draft that breaks a rule leaves the home page working, with the published review', () => {
  const withDraft = (edit: Partial<StoredDocument>) =>
    local([...seed, { ...review, _id: `drafts.${review._id}`, ...edit } as StoredDocument])

  test.each([
    ['malformed text (blocks where a string belongs)', { text: [{ _type: 'block', children: 'oops' }] }],
    ['a required field missing', { text: undefined }],
    ['a rule broken', { stars: 1 }],
  ])('%s', async (_, edit) => {
    const source = withDraft(edit)
    const home = await getHomePage(source)
    expect(home.sectionReviews.find((item) => item._id === review._id)).toMatchObject({ text: review.text })
    await expect(getCaseStudyCards(source)).resolves.toHaveLength(3)
    const problems = await getPreviewProblems(source)
    expect(problems.length).toBeGreaterThan(0)
    expect(problems.every((p) => p.documentId === `drafts.${review._id}` && p.shown === 'published')).toBe(
      true,
    )
  })
})

test('a draft-only case study that breaks a rule is not there at all', async () => {
  const fresh = {
    ...study,
    _id: 'drafts.caseStudy-fresh',
    slug: { _type: 'slug', current: 'fresh-study' },
    legacyId: 'Fresh Study',
    title: '',
  }
  const source = local([...seed, fresh])
  expect(await getCaseStudy('fresh-study', source)).toBeNull()
  expect((await getCaseStudyCards(source)).map((card) => card._id)).not.toContain('caseStudy-fresh')
  expect(await getPreviewProblems(source)).toEqual([
    expect.objectContaining({ documentId: 'drafts.caseStudy-fresh', field: 'title', shown: 'nothing' }),
  ])
  // The banner's list of drafts shown leaves it out: it is listed as a problem instead.
  expect((await getPreviewDrafts(source)).map((draft) => draft.id)).not.toContain('caseStudy-fresh')
  // Valid, the same draft is there.
  const valid = local([...seed, { ...fresh, title: 'A fresh case study' }])
  expect(await getCaseStudy('fresh-study', valid)).toMatchObject({ title: 'A fresh case study' })
})

test('a draft too large to check is not shown, and no rule runs on it', async () => {
  const block = (index: number) => ({
    _type: 'block',
    _key: `big${index}`,
    style: 'normal',
    markDefs: [],
    children: [{ _type: 'span', _key: `big${index}s`, text: 'x'.repeat(500), marks: [] }],
  })
  const huge = {
    ...study,
    _id: `drafts.${study._id}`,
    issue: Array.from({ length: 2500 }, (_, i) => block(i)),
  }
  expect(Buffer.byteLength(JSON.stringify(huge))).toBeGreaterThan(MAX_PREVIEW_DRAFT_BYTES)
  const before = draftsValidated()
  const source = local([...seed, huge])
  const slug = (study.slug as { current: string }).current
  expect((await getCaseStudy(slug, source))!.issue).toEqual(study.issue)
  expect(draftsValidated()).toBe(before)
  expect(await getPreviewProblems(source)).toEqual([
    expect.objectContaining({
      documentId: huge._id,
      field: '(document)',
      shown: 'published',
      message: expect.stringMatching(
        /^this draft is 1\.\d MB: the preview checks and shows drafts up to 1 MB$/,
      ),
    }),
  ])
})

test('a release version is vetted the same way', async () => {
  const source = local(
    [...seed, { ...review, _id: `versions.rSpring.${review._id}`, stars: 1 }],
    ['rSpring', 'drafts'],
  )
  const home = await getHomePage(source)
  expect(home.sectionReviews.find((item) => item._id === review._id)).toMatchObject({ stars: review.stars })
  expect(await getPreviewProblems(source)).toEqual([
    expect.objectContaining({
      documentId: `versions.rSpring.${review._id}`,
      publishedId: review._id,
      field: 'stars',
      shown: 'published',
      release: 'rSpring',
    }),
  ])
})

test('the build reads published documents and never validates a draft', async () => {
  const before = draftsValidated()
  const source: ContentSource = writeDataset([...seed, { ...review, _id: `drafts.${review._id}`, stars: 1 }])
  await getHomePage(source)
  expect(await getPreviewProblems(source)).toEqual([])
  expect(draftsValidated()).toBe(before)
  // The rules' snapshot of a preview is the dataset as stored, the invalid draft included.
  const stored = await readAllDocuments({ ...source, perspective: 'drafts' })
  expect(stored.find((doc) => doc._id === review._id)).toMatchObject({ stars: 1 })
})

describe('verdicts are kept per revision', () => {
  const draft = {
    ...review,
    _id: `drafts.${review._id}`,
    text: 'A draft of this review, long enough to pass.',
  }

  test('a second read, or a new version of the file with the draft unchanged, does not validate it again; a new revision does', async () => {
    const first = local([...seed, { ...draft, text: `${draft.text} (cache test)` }])
    const before = draftsValidated()
    await getHomePage(first)
    expect(draftsValidated()).toBe(before + 1)
    await getHomePage(first)
    await getPreviewProblems(first)
    expect(draftsValidated()).toBe(before + 1)
    // Another document changed (a new file), this draft not: its verdict is reused.
    const faq = seed.find((doc) => doc._type === 'faq')!
    const other = local([
      ...seed,
      { ...draft, text: `${draft.text} (cache test)` },
      { ...faq, _id: `drafts.${faq._id}` },
    ])
    await getHomePage(other)
    expect(draftsValidated()).toBe(before + 2) // the faq draft only
    // The review saved again: a new revision, validated.
    await getHomePage(local([...seed, { ...draft, text: `${draft.text} (cache test, saved again)` }]))
    expect(draftsValidated()).toBe(before + 3)
  })

  test('a verdict that rests on other documents is checked again when they change', async () => {
    const fresh = {
      ...study,
      _id: 'drafts.caseStudy-fresh-address',
      slug: { _type: 'slug', current: 'fresh-address' },
      legacyId: 'Fresh Address',
    }
    expect(await getCaseStudy('fresh-address', local([...seed, fresh]))).not.toBeNull()
    // A published case study now answers at the draft's slug, the draft unchanged: it breaks a rule.
    const taken = seed.map((doc) => (doc._id === study._id ? { ...doc, legacyId: 'fresh-address' } : doc))
    const source = local([...taken, fresh])
    expect(await getCaseStudy('fresh-address', source)).toMatchObject({ _id: study._id })
    expect(await getPreviewProblems(source)).toEqual([
      expect.objectContaining({ documentId: fresh._id, field: 'slug', shown: 'nothing' }),
    ])
  })

  test('a draft that links to a case study left out is left out too', async () => {
    const gone = {
      ...study,
      _id: 'drafts.caseStudy-gone',
      slug: { _type: 'slug', current: 'gone' },
      legacyId: 'Gone',
      title: '',
    }
    const other = seed.filter((doc) => doc._type === 'caseStudy')[1]!
    const linking = {
      ...other,
      _id: `drafts.${other._id}`,
      title: 'MARKER-LINKING draft',
      issue: [
        {
          _type: 'block',
          _key: 'b1',
          style: 'normal',
          markDefs: [{ _type: 'link', _key: 'l1', href: '/case-studies/gone' }],
          children: [
            {
              _type: 'span',
              _key: 's1',
              text: 'See the case study next door, which explains it all.',
              marks: ['l1'],
            },
          ],
        },
      ],
    }
    const source = local([...seed, gone, linking])
    const problems = await getPreviewProblems(source)
    expect(problems.map((p) => [p.documentId, p.field])).toEqual([
      ['drafts.caseStudy-gone', 'title'],
      [linking._id, 'issue[_key=="b1"].markDefs[_key=="l1"].href'],
    ])
    expect(JSON.stringify(await getCaseStudyCards(source))).not.toContain('MARKER-LINKING')
  })
})

test('the Content Lake: invalid drafts are not shown, and a valid one is, through the API', async () => {
  const standIn = await startSanityStandIn([
    ...seed,
    {
      ...settings,
      _id: 'drafts.siteSettings',
      brandName: 'Draft Brand',
      bookingScriptUrl: 'data:text/javascript,alert(1)',
    },
    { ...review, _id: `drafts.${review._id}`, text: 'A valid draft of this review, from the Lake.' },
  ])
  try {
    const lake = standInSource(standIn, { perspective: 'drafts', preview: true })
    const drafts = () => standIn.calls.filter((call) => call.search.perspective === 'drafts').length
    const shown = await getSiteSettings(lake)
    expect(shown.brandName).toBe(settings.brandName)
    expect(JSON.stringify(shown)).not.toContain('data:')
    const home = await getHomePage(lake)
    expect(home.sectionReviews.find((item) => item._id === review._id)?.text).toBe(
      'A valid draft of this review, from the Lake.',
    )
    expect(await getPreviewProblems(lake)).toEqual([
      expect.objectContaining({
        documentId: 'drafts.siteSettings',
        field: 'bookingScriptUrl',
        shown: 'published',
      }),
    ])
    // With a draft left out, the queries ran here, over the vetted snapshot: none went to the Lake's view.
    expect(drafts()).toBe(0)
    // The settings draft mended (a new revision): the Lake answers the query itself (stega's source maps).
    await fetch(`${standIn.url}/v2025-02-19/data/mutate/production`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        mutations: [
          { createOrReplace: { ...settings, _id: 'drafts.siteSettings', brandName: 'Draft Brand' } },
        ],
      }),
    })
    expect((await getSiteSettings(lake)).brandName).toBe('Draft Brand')
    expect(drafts()).toBe(1)
    expect(await getPreviewProblems(lake)).toEqual([])
  } finally {
    await standIn.close()
  }
})

describe('one draft never takes the preview down: it is left out, with its reason, and every page renders', () => {
  const faq = seed.find((doc) => doc._id === 'faq-services')!
  /** Arrays, one in the next: 6,000 of them are 12 kB of JSON, deeper than any recursive walk's stack. */
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`
  /** Where a test's draft holds 6,000 nested arrays: JSON.stringify cannot write them, so the file gets them here. */
  const DEEP = 'MARKER-NESTED-6000-DEEP'
  const withDeep = (docs: StoredDocument[]): ContentSource => {
    const source = local(docs) as { kind: 'local'; file: string }
    writeFileSync(source.file, readFileSync(source.file, 'utf8').replace(`"${DEEP}"`, nested(6000)))
    return source
  }

  /** Everything a preview page reads, the banner's two lists included. */
  const everyPageRead = async (source: ContentSource) => ({
    settings: await getSiteSettings(source),
    home: await getHomePage(source),
    cards: await getCaseStudyCards(source),
    study: await getCaseStudy((study.slug as { current: string }).current, source),
    drafts: await getPreviewDrafts(source),
    problems: await getPreviewProblems(source),
  })

  /** The banner as the page renders it, to text (it throws on a value React cannot render). */
  const bannerText = (read: Awaited<ReturnType<typeof everyPageRead>>) =>
    renderToStaticMarkup(
      createElement(PreviewBanner, {
        renderedAt: '2026-11-26T10:00:00.000Z',
        drafts: read.drafts,
        problems: read.problems,
        studioUrl: '/studio',
      }),
    )

  const attacks: [string, StoredDocument, RegExp][] = [
    [
      'a review draft whose name is an object',
      { ...review, _id: `drafts.${review._id}`, name: { first: 'Mallory' } },
      /^Expected type "String", got "Object"$/,
    ],
    [
      'a 12 kB draft of no type of the schema, an array nested 6,000 deep',
      { _id: 'drafts.deep-junk', _type: 'junk', deep: DEEP },
      /^this draft nests its values more than 32 levels deep/,
    ],
    [
      'a review draft nested 6,000 deep',
      { ...review, _id: `drafts.${review._id}`, text: DEEP },
      /^this draft nests its values more than 32 levels deep/,
    ],
    [
      'drafts.siteSettings of an unknown type',
      { ...settings, _id: 'drafts.siteSettings', _type: 'siteSettingz', brandName: 'Draft Brand' },
      /^its type "siteSettingz" is not a document type of this site's schema$/,
    ],
    [
      'drafts.siteSettings of another type of the schema',
      { ...review, _id: 'drafts.siteSettings', name: 'Draft Brand' },
      /^its type "review" is not the type of its published document \("siteSettings"\)$/,
    ],
    [
      "a case study draft whose image is an FAQ (a document that exists, as the schema's rule asks)",
      {
        ...study,
        _id: `drafts.${study._id}`,
        image: { ...(study.image as object), asset: { _type: 'reference', _ref: 'faq-services' } },
      },
      /^asset "faq-services" has no dimensions$/,
    ],
    [
      'drafts.drafts.faq-services, an id Sanity cannot place',
      { ...faq, _id: 'drafts.drafts.faq-services', question: 'An odd draft?' },
      /^its id is not a document id Sanity can place: /,
    ],
  ]

  test.each(attacks)('%s', async (_, draft, reason) => {
    const clean = await everyPageRead(local(seed))
    const read = await everyPageRead(withDeep([...seed, draft]))
    // The pages read what they read without it.
    expect({ ...read, drafts: [], problems: [] }).toEqual({ ...clean, drafts: [], problems: [] })
    expect(read.drafts).toEqual([])
    expect(read.problems).toEqual([
      expect.objectContaining({ documentId: draft._id, message: expect.stringMatching(reason) }),
    ])
    for (const problem of read.problems) expect(typeof problem.title).toBe('string')
    expect(bannerText(read)).toContain(draft._id)
  })

  test('a vetted draft whose title field is not text: the banner names it by its text, never the value', async () => {
    // An unknown field is no rule's business: the draft is valid, and shown.
    const odd = { ...faq, _id: `drafts.${faq._id}`, title: { _type: 'block', children: [] } }
    const read = await everyPageRead(local([...seed, odd]))
    expect(read.problems).toEqual([])
    expect(read.drafts).toEqual([{ id: faq._id, type: 'faq', title: faq.question }])
    expect(bannerText(read)).toContain(String(faq.question))
  })

  test('the banner names a draft by plain text: no stega of its own, no page of it', async () => {
    const long = `${'A very long name '.repeat(20)}${vercelStegaCombine('', { origin: 'sanity.io', href: 'https://evil.example/' })}`
    const read = await everyPageRead(local([...seed, { ...faq, _id: `drafts.${faq._id}`, question: long }]))
    const [shown] = read.drafts
    expect(shown!.title).toHaveLength(TITLE_LENGTH)
    expect(shown!.title).toBe(stegaClean(shown!.title))
  })

  test("the banner's reasons are plain text too: a rule's message quoting a draft's value carries none of its stega", async () => {
    // Two new case studies with one legacy id, an invisible edit link at its end: the rule quotes it.
    const legacyId = vercelStegaCombine(
      'Twice',
      { origin: 'sanity.io', href: 'https://evil.example/' },
      false,
    )
    const twins = ['a', 'b'].map((tag) => ({
      ...study,
      _id: `drafts.caseStudy-twin-${tag}`,
      slug: { _type: 'slug', current: `twin-${tag}` },
      legacyId,
    }))
    const read = await everyPageRead(local([...seed, ...twins]))
    expect(read.problems.map((problem) => [problem.documentId, problem.message])).toEqual([
      ['drafts.caseStudy-twin-a', '"Twice" is already the address of case study "caseStudy-twin-b"'],
      ['drafts.caseStudy-twin-b', '"Twice" is already the address of case study "caseStudy-twin-a"'],
    ])
    expect(JSON.stringify(read.problems)).toBe(JSON.stringify(stegaClean(read.problems)))
    expect(bannerText(read)).toBe(stegaClean(bannerText(read)))
  })

  test('the Content Lake: the same drafts are left out, with the same reasons', async () => {
    const drafts = attacks
      .map(([, draft]) => draft)
      // The stand-in answers with JSON.stringify, which cannot write 6,000 levels; the Lake can.
      .map((draft) => (draft.deep === DEEP ? { ...draft, deep: JSON.parse(nested(3000)) as unknown } : draft))
      .filter((draft) => draft._id !== `drafts.${review._id}` || typeof draft.name === 'object')
      .filter((draft) => draft._id !== 'drafts.siteSettings' || draft._type === 'siteSettingz')
    const standIn = await startSanityStandIn([...seed, ...drafts])
    try {
      const lake = standInSource(standIn, { perspective: 'drafts', preview: true })
      const read = await everyPageRead(lake)
      expect(read.settings.brandName).toBe(settings.brandName)
      expect(read.drafts).toEqual([])
      expect(read.problems.map((problem) => problem.documentId).sort()).toEqual(
        drafts.map((draft) => draft._id).sort(),
      )
      expect(bannerText(read)).toContain('drafts.drafts.faq-services')
    } finally {
      await standIn.close()
    }
  })
})

describe('the vetting grows with the drafts, not their square', () => {
  const chain = (count: number, tag: string, brokenEnd: boolean) =>
    chainedDrafts(study, count, `chain-${tag}`, brokenEnd)

  /**
   * The vetting's work for one read of a fresh view: validations, and rule queries run again
   * (each draft's rules record four, each check of a kept verdict runs them; a draft is
   * checked a few times at most, never once per other draft).
   */
  const work = async (source: ContentSource) => {
    const validations = draftsValidated()
    const reads = ruleReadsChecked()
    const problems = await getPreviewProblems(source)
    return {
      validations: draftsValidated() - validations,
      reads: ruleReadsChecked() - reads,
      rejected: new Set(problems.map((problem) => problem.documentId)).size,
    }
  }

  test.each([40, 80])(
    '%i chained drafts, the last one broken: each validated at most twice; saved again, none',
    async (count) => {
      const drafts = chain(count, `broken${count}`, true)
      const cold = await work(local([...seed, ...drafts]))
      expect(cold.rejected).toBe(count)
      // Once over the whole view, once more when the draft it links to was taken out.
      expect(cold.validations).toBeLessThanOrEqual(2 * count)
      expect(cold.reads).toBeLessThanOrEqual(16 * count)
      // A new version of the file, another draft saved: the chain is taken out on its kept verdicts.
      const faq = seed.find((doc) => doc._type === 'faq')!
      const saved = { ...faq, _id: `drafts.${faq._id}`, question: `${String(faq.question)} (${count})` }
      const warm = await work(local([...seed, ...drafts, saved]))
      expect(warm).toEqual({ validations: 1, reads: expect.any(Number), rejected: count })
      expect(warm.reads).toBeLessThanOrEqual(16 * count)
    },
  )

  test('a valid chain: each draft validated once', async () => {
    const count = 80
    const cold = await work(local([...seed, ...chain(count, 'valid', false)]))
    expect(cold).toEqual({ validations: count, reads: expect.any(Number), rejected: 0 })
    expect(cold.reads).toBeLessThanOrEqual(16 * count)
  })
})
