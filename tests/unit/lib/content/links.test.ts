/**
 * @jest-environment node
 *
 * Every link and embed field of the dataset refuses script, data, plain-http and
 * other-site addresses at build time (the Studio schema's rules, run by the build's
 * first step, lib/content/content-check.ts), naming the document and the field: siteSettings bookingWidgetUrl, bookingScriptUrl,
 * contactWebhookUrl, siteUrl; portfolioSite url; links in case study text
 * (issue, solution, outcome: markDefs[].href); and image assets' url (what
 * the build downloads from Sanity).
 */
import { ContentError, getSiteSettings } from '@/lib/content'
import { validateAllContent } from '@/lib/content/content-check'
import { httpsUrlOrSitePath, isHttps, isSitePath, textLinkHref } from '@/studio/schemaTypes/urls'
import type { StoredDocument } from '@/lib/content/source'
import { BAD_PATHS, BAD_URLS } from '../../helpers/badUrls'
import { SEED_FILE, seedDocuments, seedWith, writeDataset } from '../../helpers/dataset'

const firstOf = (type: string) => seedDocuments().find((doc) => doc._type === type)!

/** The rejection of `promise`, which must be a ContentError naming `documentId` and `field`. */
async function refusal(promise: Promise<unknown>, documentId: string, field: string) {
  const error = await promise.then(
    () => new Error('was accepted'),
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(ContentError)
  const problem = (error as ContentError).problems.find(
    (candidate) => candidate.documentId === documentId && candidate.field.startsWith(field),
  )
  expect(problem).toBeDefined()
  expect((error as Error).message).toContain(`document "${documentId}", field "${problem!.field}"`)
  return error as ContentError
}

describe('siteSettings link and embed fields', () => {
  const fields = [
    { field: 'bookingWidgetUrl', paths: true },
    { field: 'bookingScriptUrl', paths: true },
    { field: 'contactWebhookUrl', paths: true },
    { field: 'siteUrl', paths: false },
  ]
  for (const { field, paths } of fields) {
    const bad = paths ? [...BAD_URLS, ...BAD_PATHS] : [...BAD_URLS, '/a-path-is-not-enough']
    test.each(bad.map((value) => [JSON.stringify(value), value]))(
      `${field} = %s fails the build`,
      async (_, value) => {
        const source = seedWith('siteSettings', (doc) => ({ ...doc, [field]: value }))
        await refusal(validateAllContent(source), 'siteSettings', field)
      },
    )
  }

  test('the seed and ordinary values pass: https addresses and same-site paths', async () => {
    await expect(getSiteSettings({ kind: 'local', file: SEED_FILE })).resolves.toBeTruthy()
    const source = seedWith('siteSettings', (doc) => ({
      ...doc,
      bookingWidgetUrl: 'https://booking.example.com/widget/booking/abc?x=1',
      bookingScriptUrl: 'https://booking.example.com/embed.js',
      contactWebhookUrl: 'https://hook.eu1.make.com/abc123',
      siteUrl: 'https://www.example.co.uk',
    }))
    await expect(validateAllContent(source)).resolves.toBeTruthy()
    await expect(getSiteSettings(source)).resolves.toMatchObject({
      contactWebhookUrl: 'https://hook.eu1.make.com/abc123',
    })
  })
})

describe('portfolioSite url', () => {
  const site = firstOf('portfolioSite')
  test.each([...BAD_URLS, '/relative'].map((value) => [JSON.stringify(value), value]))(
    'url = %s fails the build',
    async (_, value) => {
      const source = seedWith(site._id, (doc) => ({ ...doc, url: value }))
      await refusal(validateAllContent(source), site._id, 'url')
    },
  )
})

describe('links in case study text (the schema allows a link annotation in issue, solution, outcome)', () => {
  const study = firstOf('caseStudy')

  /** The case study with one link on the first span of `field`'s first block. */
  const withLink = (field: string, href: unknown) =>
    seedWith(study._id, (doc) => {
      const blocks = structuredClone(doc[field]) as {
        markDefs: unknown[]
        children: { marks: string[] }[]
      }[]
      blocks[0]!.markDefs = [{ _type: 'link', _key: 'l1', href }]
      blocks[0]!.children[0]!.marks = ['l1']
      return { ...doc, [field]: blocks } as StoredDocument
    })

  for (const field of ['issue', 'solution', 'outcome']) {
    test.each([...BAD_URLS, ...BAD_PATHS].map((value) => [JSON.stringify(value), value]))(
      `a link in ${field} to %s fails the build`,
      async (_, value) => {
        const error = await refusal(validateAllContent(withLink(field, value)), study._id, field)
        expect(error.field).toMatch(
          new RegExp(`^${field}\\[_key=="[^"]+"\\]\\.markDefs\\[_key=="l1"\\]\\.href$`),
        )
      },
    )
  }

  test.each([
    'https://example.com/a',
    '/consultation',
    '/case-studies/um-al-hayaa#top',
    'mailto:hi@example.co.uk',
    'tel:+442079460321',
  ])('a link to %s is fine', async (href) => {
    await expect(validateAllContent(withLink('solution', href))).resolves.toBeTruthy()
  })
})

describe('image asset url (downloaded by the build from Sanity)', () => {
  const asset = firstOf('sanity.imageAsset')
  test.each(BAD_URLS.map((value) => [JSON.stringify(value), value]))(
    'url = %s fails the build',
    async (_, value) => {
      await refusal(
        validateAllContent(seedWith(asset._id, (doc) => ({ ...doc, url: value }))),
        asset._id,
        'url',
      )
    },
  )
})

test('the whole seed passes the build-time check', async () => {
  await expect(validateAllContent({ kind: 'local', file: SEED_FILE })).resolves.toMatchObject({ errors: [] })
  await expect(validateAllContent(writeDataset(seedDocuments()))).resolves.toMatchObject({ errors: [] })
})

describe('the rules themselves (studio/schemaTypes/urls.ts)', () => {
  test.each([...BAD_URLS, ...BAD_PATHS])('%j is refused by every link rule', (value) => {
    expect(isHttps(value)).toBe(false)
    expect(httpsUrlOrSitePath(value)).toEqual(expect.any(String))
    expect(textLinkHref(value)).toEqual(expect.any(String))
  })

  test.each(BAD_PATHS)('%j is not a path on this site', (value) => {
    expect(isSitePath(value)).toBe(false)
  })

  test.each(['/', '/api/contact', '/booking/', '/a/b.js?x=1#y', '/caf%C3%A9'])(
    '%j is a path on this site',
    (value) => {
      expect(isSitePath(value)).toBe(true)
      expect(httpsUrlOrSitePath(value)).toBe(true)
    },
  )

  test('a control character makes a path no path on this site', () => {
    expect(isSitePath('/a\u0001b')).toBe(false)
    expect(isSitePath('/a\u007fb')).toBe(false)
  })

  test('non-strings are refused, not stringified', () => {
    for (const rule of [httpsUrlOrSitePath, textLinkHref])
      for (const value of [{ toString: () => 'https://x.example' }, ['https://x.example'], 1])
        expect(rule(value)).toEqual(expect.any(String))
  })
})
