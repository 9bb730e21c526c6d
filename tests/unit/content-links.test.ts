/**
 * @jest-environment node
 *
 * Every link and embed field of the dataset refuses script, data, plain-http and
 * other-site addresses at build time (lib/content/validate.ts), naming the
 * document and the field: siteSettings bookingWidgetUrl, bookingScriptUrl,
 * contactWebhookUrl, siteUrl; portfolioSite url; links in case study text
 * (issue, solution, outcome: markDefs[].href); and image assets' url (what
 * the build downloads from Sanity).
 */
import { ContentError, getCaseStudy, getPortfolioSites, getSiteSettings } from '@/lib/content'
import { validateAllContent } from '@/lib/content/check'
import { httpsUrl, httpsUrlOrPath, sitePath, textLink } from '@/lib/content/validate'
import type { StoredDocument } from '@/lib/content/source'
import { BAD_PATHS, BAD_URLS } from './helpers/badUrls'
import { SEED_FILE, seedDocuments, seedWith, writeDataset } from './helpers/dataset'

const firstOf = (type: string) => seedDocuments().find((doc) => doc._type === type)!

/** The rejection of `promise`, which must be a ContentError naming `documentId` and `field`. */
async function refusal(promise: Promise<unknown>, documentId: string, field: string) {
  const error = await promise.then(
    () => new Error('was accepted'),
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(ContentError)
  expect(error).toMatchObject({ documentId, field })
  expect((error as Error).message).toContain(`document "${documentId}", field "${field}"`)
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
        await refusal(getSiteSettings(source), 'siteSettings', field)
        await refusal(validateAllContent(source), 'siteSettings', field)
      },
    )
  }

  test('the seed and ordinary values pass: https addresses and same-site paths', async () => {
    await expect(getSiteSettings({ kind: 'local', file: SEED_FILE })).resolves.toBeTruthy()
    const source = seedWith('siteSettings', (doc) => ({
      ...doc,
      bookingWidgetUrl: 'https://booking.example.com/widget/booking/abc?x=1',
      bookingScriptUrl: '/booking/embed.js',
      contactWebhookUrl: 'https://hook.eu1.make.com/abc123',
      siteUrl: 'https://www.example.co.uk',
    }))
    await expect(getSiteSettings(source)).resolves.toMatchObject({ bookingScriptUrl: '/booking/embed.js' })
  })
})

describe('portfolioSite url', () => {
  const site = firstOf('portfolioSite')
  test.each([...BAD_URLS, '/relative'].map((value) => [JSON.stringify(value), value]))(
    'url = %s fails the build',
    async (_, value) => {
      const source = seedWith(site._id, (doc) => ({ ...doc, url: value }))
      await refusal(getPortfolioSites(source), site._id, 'url')
      await refusal(validateAllContent(source), site._id, 'url')
    },
  )
})

describe('links in case study text (the schema allows a link annotation in issue, solution, outcome)', () => {
  const study = firstOf('caseStudy')
  const slug = (study.slug as { current: string }).current

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
        const source = withLink(field, value)
        const error = await refusal(getCaseStudy(slug, source), study._id, field)
        expect(error.problem).toContain('block 1 has a link')
        await refusal(validateAllContent(source), study._id, field)
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
    await expect(getCaseStudy(slug, withLink('solution', href))).resolves.toBeTruthy()
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
  await expect(validateAllContent({ kind: 'local', file: SEED_FILE })).resolves.toBeUndefined()
  await expect(validateAllContent(writeDataset(seedDocuments()))).resolves.toBeUndefined()
})

describe('the checks themselves', () => {
  test.each([...BAD_URLS, ...BAD_PATHS])('%j is refused by every link check', (value) => {
    for (const check of [httpsUrl, httpsUrlOrPath, textLink])
      expect([check.name, check(value)]).toEqual([check.name, expect.any(String)])
  })

  test.each(BAD_PATHS)('%j is not a path on this site', (value) => {
    expect(sitePath(value)).toEqual(expect.any(String))
  })

  test.each(['/', '/api/contact', '/booking/', '/a/b.js?x=1#y', '/caf%C3%A9'])(
    '%j is a path on this site',
    (value) => {
      expect(sitePath(value)).toBeNull()
      expect(httpsUrlOrPath(value)).toBeNull()
    },
  )

  test('non-strings are refused, not stringified', () => {
    for (const check of [httpsUrl, httpsUrlOrPath, textLink, sitePath])
      for (const value of [{ toString: () => 'https://x.example' }, ['https://x.example'], 1])
        expect(check(value)).toEqual(expect.any(String))
  })
})
