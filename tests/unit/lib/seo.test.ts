/**
 * @jest-environment node
 *
 * What search engines and share previews read (lib/seo.ts and the routes using it):
 * JSON-LD with the properties they need, every address absolute on the site's
 * `siteUrl`, and one canonical address per page, as Next resolves it against the
 * layout's `metadataBase` (Next's own resolver). Case study pages are built from the
 * seed dataset, the way the export builds them.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import type { Metadata } from 'next'
import { resolveAlternates } from 'next/dist/lib/metadata/resolvers/resolve-basics'
import { resolveUrl } from 'next/dist/lib/metadata/resolvers/resolve-url'
import { renderToStaticMarkup } from 'react-dom/server'
import { generateMetadata as layoutMetadata } from '@/app/(site)/layout'
import { generateMetadata as homeMetadata } from '@/app/(site)/page'
import CaseStudyPage, {
  generateMetadata as caseStudyMetadata,
  generateStaticParams as caseStudyParams,
} from '@/app/(site)/case-studies/[slug]/page'
import { generateMetadata as caseStudiesMetadata } from '@/app/(site)/case-studies/page'
import { generateMetadata as sitesMetadata } from '@/app/(site)/sites/page'
import { generateMetadata as consultationMetadata } from '@/app/(site)/consultation/page'
import { getCaseStudyPaths, getSiteSettings } from '@/lib/content'
import { caseStudyJsonLd, faqPageJsonLd, metaDescription, organizationJsonLd } from '@/lib/seo'
import { SEED_FILE } from '../helpers/dataset'

// The case study page inlines its small image from public/media/, which only the build
// writes (unit tests run before it, on a fresh clone too); this file reads the page's
// JSON-LD, so the image stays as the content layer gives it.
// Rendered as the export renders them: outside a request, not in draft mode.
jest.mock('next/headers', () => ({ draftMode: async () => ({ isEnabled: false }) }))
jest.mock('@/lib/content/inline-image', () => ({
  ...jest.requireActual('@/lib/content/inline-image'),
  inlineIfSmall: async (image: unknown) => image,
}))

const settings = {
  brandName: 'Elevate Local',
  description: 'Fast websites and automations for local businesses.',
  siteUrl: 'https://www.example.co.uk',
  contactEmail: 'hello@example.co.uk',
  contactPhone: '+44 20 7946 0321',
}
const study = {
  slug: 'osteopath-lancing',
  headline: 'How an Osteopath Stopped Losing Patients',
  description: `A clinic   lost calls.\n\n${'Every missed call was a patient lost. '.repeat(10)}`,
  imageSrc: '/media/abc-1200x800.svg',
  createdAt: '2026-11-02T09:00:00Z',
  updatedAt: '2026-11-16T09:00:00Z',
}

/** JSON-LD as a search engine reads it: the JSON text the page embeds, parsed. */
const read = <T>(data: object): T => JSON.parse(JSON.stringify(data))
type Organization = Record<'@context' | '@type' | '@id' | 'name' | 'url' | 'logo' | 'image', string> & {
  telephone: string
  email: string
  contactPoint: Record<string, unknown>
}
type Reference = { '@type': string; '@id': string; name: string }
type Article = Record<
  '@type' | '@id' | 'url' | 'mainEntityOfPage' | 'headline' | 'description' | 'image',
  string
> & {
  datePublished?: string
  dateModified?: string
  author: Reference
  publisher: Reference
}

/** Does `value` parse as an absolute https URL on `origin`? */
const onSite = (value: unknown, origin = 'https://www.example.co.uk') =>
  typeof value === 'string' && new URL(value).origin === origin && !new URL(value).pathname.includes('//')
const E164 = /^\+[1-9]\d{6,14}$/

describe('the organisation (every page)', () => {
  const data = read<Organization>(organizationJsonLd(settings))

  test('a schema.org ProfessionalService named after the brand, with absolute addresses on the site', () => {
    expect(data['@context']).toBe('https://schema.org')
    expect(data['@type']).toBe('ProfessionalService')
    expect(data.name).toBe('Elevate Local')
    for (const key of ['@id', 'url', 'logo', 'image'] as const) expect(onSite(data[key])).toBe(true)
    expect(new URL(data.url).pathname).toBe('/')
  })

  test('its logo is a raster image the site serves (Google takes no SVG logo)', () => {
    const logo = new URL(data.logo).pathname
    expect(logo).toMatch(/\.(png|jpe?g|webp)$/)
    expect(existsSync(path.join('app', logo)) || existsSync(path.join('public', logo))).toBe(true)
  })

  test('phone in international form and e-mail, also as a customer service contact point', () => {
    expect(data.telephone).toMatch(E164)
    expect(data.telephone).toBe('+442079460321')
    expect(data.email).toBe('hello@example.co.uk')
    expect(data.contactPoint).toMatchObject({
      '@type': 'ContactPoint',
      contactType: 'customer service',
      telephone: data.telephone,
      email: data.email,
    })
  })

  test('a siteUrl written with a trailing slash gives the same addresses', () => {
    expect(read(organizationJsonLd({ ...settings, siteUrl: 'https://www.example.co.uk/' }))).toEqual(data)
  })
})

describe('a case study (Article)', () => {
  const data = read<Article>(caseStudyJsonLd(study, settings))

  test("lives at its slug's address, on the site", () => {
    expect(data['@type']).toBe('Article')
    expect(data.url).toBe('https://www.example.co.uk/case-studies/osteopath-lancing')
    expect(data.mainEntityOfPage).toBe(data.url)
    expect(data['@id'].startsWith(`${data.url}#`)).toBe(true)
  })

  test('has what Google reads for an article: headline, image, dates, author', () => {
    expect(data.headline).toBe(study.headline)
    expect(data.image).toBe('https://www.example.co.uk/media/abc-1200x800.svg')
    expect(data.datePublished).toBe(study.createdAt)
    expect(data.dateModified).toBe(study.updatedAt)
    expect(data.author.name).toBe('Elevate Local')
  })

  test('author and publisher are the organisation of every page (the same @id)', () => {
    const organization = read<Organization>(organizationJsonLd(settings))['@id']
    expect(data.author['@id']).toBe(organization)
    expect(data.publisher['@id']).toBe(organization)
  })

  test('its description is one line of at most 155 characters, with an ellipsis when cut', () => {
    const description = data.description
    expect(description).not.toMatch(/\s\s|\n/)
    expect(Array.from(description).length).toBeLessThanOrEqual(156)
    expect(description.startsWith('A clinic lost calls. Every missed call')).toBe(true)
    expect(description.endsWith('…')).toBe(true)
  })

  test('an image already on a CDN keeps its address; unknown dates are left out', () => {
    const cdn = 'https://cdn.sanity.io/images/p/d/abc-1200x800.png'
    const data = read<Article>(
      caseStudyJsonLd({ ...study, imageSrc: cdn, createdAt: null, updatedAt: undefined }, settings),
    )
    expect(data).toHaveProperty('image', cdn)
    expect(data).not.toHaveProperty('datePublished')
    expect(data).not.toHaveProperty('dateModified')
  })
})

describe('the FAQ section (FAQPage)', () => {
  test('every FAQ as a Question with its accepted Answer, in order, on the home page', () => {
    const faqs = [
      { question: 'How long does it take?', answer: '5 to 7 days.' },
      { question: 'What does it cost?', answer: 'An upfront fee plus a monthly retainer.' },
    ]
    const data = read<{
      '@type': string
      url: string
      mainEntity: { '@type': string; name: string; acceptedAnswer: { '@type': string; text: string } }[]
    }>(faqPageJsonLd(faqs, settings.siteUrl))
    expect(data['@type']).toBe('FAQPage')
    expect(data.url).toBe('https://www.example.co.uk/')
    expect(data.mainEntity.map((entry) => entry['@type'])).toEqual(['Question', 'Question'])
    expect(data.mainEntity.map((entry) => entry.acceptedAnswer['@type'])).toEqual(['Answer', 'Answer'])
    expect(data.mainEntity.map((entry) => [entry.name, entry.acceptedAnswer.text])).toEqual(
      faqs.map(({ question, answer }) => [question, answer]),
    )
  })
})

describe('metaDescription', () => {
  test('collapses whitespace; short text stays whole', () => {
    expect(metaDescription('One\n\n  two\tthree')).toBe('One two three')
  })

  test('cuts at 155 characters, never inside an emoji, and adds an ellipsis', () => {
    const cut = metaDescription(`${'a'.repeat(154)}😀 and more`)
    expect(Array.from(cut)).toHaveLength(156)
    expect(cut.endsWith('😀…')).toBe(true)
  })
})

describe('canonical addresses and share cards, as Next resolves them', () => {
  let metadataBase: URL
  let siteUrl: string
  const saved = process.env
  beforeAll(async () => {
    // The seed dataset, even where a Sanity project is configured.
    process.env = { ...saved, SANITY_PROJECT_ID: '', LOCAL_DATASET: SEED_FILE }
    metadataBase = (await layoutMetadata()).metadataBase as URL
    siteUrl = (await getSiteSettings()).siteUrl
  })
  afterAll(() => {
    process.env = saved
  })

  /** The page's <link rel="canonical">, og:url and og:image, absolute, as Next writes them. */
  async function resolved(metadata: Metadata) {
    const alternates = await resolveAlternates(metadata.alternates!, metadataBase, Promise.resolve('/'), {
      trailingSlash: false,
    } as never)
    const openGraph = metadata.openGraph as { url: string; images: { url: string }[] }
    return {
      canonical: String(alternates!.canonical!.url),
      ogUrl: resolveUrl(openGraph.url, metadataBase)!.href,
      ogImage: resolveUrl(openGraph.images[0]!.url, metadataBase)!.href,
    }
  }

  test("the layout's metadataBase is the site's address from site settings", () => {
    expect(metadataBase.href).toBe(new URL(siteUrl).href)
  })

  test.each([
    ['/', homeMetadata, 'home'],
    ['/case-studies', caseStudiesMetadata, 'case-studies'],
    ['/sites', sitesMetadata, 'sites'],
    ['/consultation', consultationMetadata, 'consultation'],
  ])('%s names itself as canonical, with its own share card', async (route, generate, card) => {
    const { canonical, ogUrl, ogImage } = await resolved(await generate())
    const own = new URL(route, siteUrl).href
    expect(canonical.replace(/\/?$/, '/')).toBe(own.replace(/\/?$/, '/'))
    expect(ogUrl).toBe(own)
    expect(ogImage).toBe(new URL(`/og/${card}.png`, siteUrl).href)
  })

  test('the export has one page per case study, at its slug: a legacy id is a redirect, not a copy', async () => {
    const paths = await getCaseStudyPaths()
    expect(paths.some(({ slug, legacyId }) => legacyId !== slug)).toBe(true) // else this proves nothing
    expect(await caseStudyParams()).toEqual(paths.map(({ slug }) => ({ slug })))
  })

  // The export renders slugs only; the preview server (draft mode) renders a legacy id on request too.
  test("every address of a case study, its slug or a legacy id, names the slug's page as canonical", async () => {
    const paths = await getCaseStudyPaths()
    for (const { slug, legacyId } of paths) {
      const page = new URL(`/case-studies/${slug}`, siteUrl).href
      for (const address of [slug, legacyId]) {
        const params = Promise.resolve({ slug: encodeURIComponent(address) })
        expect(await resolved(await caseStudyMetadata({ params }))).toEqual({
          canonical: page,
          ogUrl: page,
          ogImage: new URL(`/og/case-study-${slug}.png`, siteUrl).href,
        })
        // The Article the page embeds agrees.
        const html = renderToStaticMarkup(await CaseStudyPage({ params }))
        const jsonLd = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)![1]!
        expect(JSON.parse(jsonLd)).toMatchObject({ '@type': 'Article', url: page, mainEntityOfPage: page })
      }
    }
  })

  test('an unknown case study address is the 404 page (status 404)', async () => {
    const params = Promise.resolve({ slug: 'no-such-study' })
    // Next's notFound(): the 404 page with status 404, which keeps it out of search results.
    const notFound = { digest: 'NEXT_HTTP_ERROR_FALLBACK;404' }
    await expect(caseStudyMetadata({ params })).rejects.toMatchObject(notFound)
    await expect(CaseStudyPage({ params })).rejects.toMatchObject(notFound)
  })
})
