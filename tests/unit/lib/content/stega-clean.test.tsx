/**
 * Stega in an editor's draft preview. With the Content Lake and `stega: {enabled: true}`,
 * Sanity's client appends invisible characters (the field's edit link) to the strings of a
 * query result; Sanity's visual-editing overlays read them from the page's text to make it
 * click-to-edit. Anywhere else they break things: an attribute (a URL, an id, a class, a
 * data-* value), `<head>`, JSON-LD, a comparison or a lookup. Every component that takes
 * content is rendered here with every string of realistic props encoded the way the client
 * encodes them (`stegaEncodeSourceMap`, the client's own encoder, with a filter that keeps
 * every string: the worst case, even what the client's default filter skips), and:
 * - no attribute and no JSON-LD carries stega, except the attributes the overlays read
 *   themselves (an image's alt text, an svg's aria-label: @sanity/visual-editing's
 *   EXPECTED_STEGA_ATTRIBUTES), where it stays so an image is click-to-edit too;
 * - the visible text does carry it (the encoding happened, and the overlays find it);
 * - cleaned, the page is the very page the clean strings give (nothing else changed).
 */
import '../../helpers/webGlobals'
import type { ReactElement } from 'react'
import { render, waitFor } from '@testing-library/react'
import { stegaClean } from '@sanity/client/stega'
import { CaseStudyArticle, type CaseStudyArticleData } from '@/components/case-studies/CaseStudyArticle'
import { CaseStudyCard, type CaseStudyCardData } from '@/components/case-studies/CaseStudyCard'
import { BookingWidget } from '@/components/consultation/BookingWidget'
import { AudienceSection } from '@/components/home/AudienceSection'
import { CaseStudiesTeaser } from '@/components/home/CaseStudiesTeaser'
import { ContactSection } from '@/components/home/ContactSection'
import { FaqSection } from '@/components/home/FaqSection'
import { Hero } from '@/components/home/Hero'
import type { ReviewData } from '@/components/home/ReviewCard'
import { ReviewsSection } from '@/components/home/ReviewsSection'
import { ReviewsStrip } from '@/components/home/ReviewsStrip'
import type { ServiceIconName } from '@/components/home/ServiceIcon'
import { ServicesGrid } from '@/components/home/ServicesGrid'
import { SiteFooter } from '@/components/layout/SiteFooter'
import { SiteHeader } from '@/components/layout/SiteHeader'
import { PortfolioCard, type PortfolioSiteData } from '@/components/portfolio/PortfolioCard'
import { JsonLd } from '@/components/seo/JsonLd'
import { CardGridPage } from '@/components/ui/CardGridPage'
import { ContentImage } from '@/components/ui/ContentImage'
import { PageHeader } from '@/components/ui/PageHeader'
import type { ContentImage as ContentImageData } from '@/lib/content/image'
import {
  absoluteUrl,
  caseStudyCardName,
  caseStudyJsonLd,
  faqPageJsonLd,
  metaDescription,
  ogImagePath,
  organizationJsonLd,
  pageMetadata,
  sectionPageMetadata,
  siteTitle,
} from '@/lib/seo'
import { telHref } from '@/lib/text'
import { seedDocuments } from '../../helpers/dataset'
import { encode, hasStega } from '../../helpers/stega'

// The header's Menu follows its items through the App Router, which a page always has.
jest.mock('next/navigation', () => ({ usePathname: () => '/', useRouter: () => ({ push: jest.fn() }) }))

// --- where stega must not be ---------------------------------------------------------------

/**
 * The attributes Sanity's overlays read stega from themselves (@sanity/visual-editing's
 * EXPECTED_STEGA_ATTRIBUTES): an `<img>`'s alt, an `<svg>`'s aria-label, a `<time>`'s datetime.
 */
const OVERLAY_ATTRIBUTES: Record<string, string[]> = { IMG: ['alt'], SVG: ['aria-label'], TIME: ['datetime'] }

/** Every place in the document where stega must never be, with what it holds (cleaned). */
function stegaOutsideText(): string[] {
  const found: string[] = []
  for (const element of [document.documentElement, ...Array.from(document.querySelectorAll('*'))]) {
    for (const { name, value } of Array.from(element.attributes)) {
      if (OVERLAY_ATTRIBUTES[element.tagName.toUpperCase()]?.includes(name)) continue
      if (hasStega(value)) found.push(`<${element.tagName.toLowerCase()} ${name}="${stegaClean(value)}">`)
    }
  }
  for (const script of Array.from(document.querySelectorAll('script[type="application/ld+json"]')))
    if (hasStega(script.textContent ?? '')) found.push(`JSON-LD ${stegaClean(script.textContent)}`)
  if (hasStega(document.head.innerHTML)) found.push(`<head> ${stegaClean(document.head.innerHTML)}`)
  return found
}

// --- realistic props, from the seed dataset ------------------------------------------------

type Doc = { _id: string; _type: string; order?: number; [field: string]: unknown }
const seed = seedDocuments() as Doc[]
const byId = (id: string) => seed.find((doc) => doc._id === id)!
const ofType = (type: string) =>
  seed.filter((doc) => doc._type === type).sort((a, b) => (a.order ?? 0) - (b.order ?? 0))
const settingsDoc = byId('siteSettings')
type SettingsText =
  | 'brandName'
  | 'description'
  | 'heroEyebrow'
  | 'heroHeadline'
  | 'heroSubheadline'
  | `${'services' | 'audience' | 'calculator' | 'caseStudies' | 'faq' | 'reviews' | 'contact'}Intro`
  | `${'consultation' | 'portfolio'}Intro`
  | 'contactEmail'
  | 'contactPhone'
  | 'bookingWidgetUrl'
  | 'contactWebhookUrl'
  | 'siteUrl'
const settings = settingsDoc as unknown as Record<SettingsText, string> & { sellingPoints: string[] }
const altOf = (doc: Doc, field = 'image') => (doc[field] as { alt: string }).alt

type Block = { _type: string; children?: { text: string }[] }
const plainText = (blocks: Block[]) =>
  blocks.map((block) => (block.children ?? []).map((span) => span.text).join('')).join('\n\n')

/** The three shapes of ContentImage: a file (next/image), a photo's copies (srcset), an inlined drawing. */
const svgImage = (alt: string): ContentImageData => ({
  src: '/media/f271b230d358ce7ad102d555521f520eef6f6656-1200x800.svg',
  width: 1200,
  height: 800,
  alt,
})
const photo = (alt: string): ContentImageData => ({
  src: '/media/1bc2730bc9bf442faac6b346ef8530d364291b0c-1200x800-1200w.webp',
  srcSet: [640, 960, 1200]
    .map((width) => `/media/1bc2730bc9bf442faac6b346ef8530d364291b0c-1200x800-${width}w.webp ${width}w`)
    .join(', '),
  width: 1200,
  height: 800,
  alt,
  focus: { x: 0.3, y: 0.625 },
})
const drawing = (alt: string): ContentImageData => ({
  ...svgImage(alt),
  inlineSvg: { viewBox: '0 0 1200 800', markup: '<rect width="1200" height="800" fill="#e0e7ff"/>' },
  focus: { x: 0.2, y: 0.5 },
})

const studies = ofType('caseStudy')
const cards: CaseStudyCardData[] = studies.map((doc, index) => ({
  _id: doc._id,
  title: doc.title as string,
  slug: (doc.slug as { current: string }).current,
  issueText: plainText(doc.issue as Block[]),
  image: index === 0 ? photo(altOf(doc)) : svgImage(altOf(doc)),
}))
const firstStudy = studies[0]!
const article: CaseStudyArticleData = {
  detailTitle: firstStudy.detailTitle as string,
  issue: firstStudy.issue as CaseStudyArticleData['issue'],
  solution: firstStudy.solution as CaseStudyArticleData['solution'],
  outcome: firstStudy.outcome as CaseStudyArticleData['outcome'],
  details: firstStudy.details as string[],
  image: drawing(altOf(firstStudy)),
}
const reviews = ofType('review').map(({ _id, name, business, text, stars }) => ({
  _id,
  name,
  business,
  text,
  stars,
})) as ReviewData[]
const services = ofType('service').map(({ _id, icon, title, description }) => ({
  _id,
  icon: icon as ServiceIconName,
  title: title as string,
  description: description as string,
}))
const pick = <K extends string>(docs: Doc[], keys: K[]) =>
  docs.map((doc) => Object.fromEntries([['_id', doc._id], ...keys.map((key) => [key, doc[key]])])) as ({
    _id: string
  } & Record<K, string>)[]
const sites: PortfolioSiteData[] = ofType('portfolioSite').map((doc, index) => ({
  _id: doc._id,
  title: doc.title as string,
  description: doc.description as string,
  url: doc.url as string,
  image: index === 0 ? photo(altOf(doc)) : svgImage(altOf(doc)),
}))
const organization = {
  brandName: settings.brandName,
  description: settings.description,
  siteUrl: settings.siteUrl,
  contactEmail: settings.contactEmail,
  contactPhone: settings.contactPhone,
}

// --- the components ------------------------------------------------------------------------

/** A component, its clean props, the document they come from, and whether it shows any text. */
type Case = {
  name: string
  props: object
  document: Doc
  view: (props: never) => ReactElement
  text: boolean
}
const component = <P extends object>(
  name: string,
  props: P,
  view: (props: P) => ReactElement,
  document: Doc = settingsDoc,
  text = true,
): Case => ({ name, props, document, view: view as (props: never) => ReactElement, text })

const cases: Case[] = [
  component(
    'Hero',
    {
      eyebrow: settings.heroEyebrow,
      headline: settings.heroHeadline,
      subheadline: settings.heroSubheadline,
      sellingPoints: settings.sellingPoints,
      image: svgImage(altOf(settingsDoc, 'heroImage')),
    },
    (props) => <Hero {...props} />,
  ),
  component('ReviewsStrip', { reviews }, (props) => <ReviewsStrip {...props} />),
  component('ServicesGrid', { intro: settings.servicesIntro, services }, (props) => (
    <ServicesGrid {...props} />
  )),
  component(
    'AudienceSection',
    {
      intro: settings.audienceIntro,
      calculatorIntro: settings.calculatorIntro,
      cards: pick(ofType('audienceCard'), ['title', 'description']),
      growthItems: pick(ofType('growthItem'), ['title', 'content']),
    },
    (props) => <AudienceSection {...props} />,
  ),
  component('CaseStudiesTeaser', { intro: settings.caseStudiesIntro, studies: cards }, (props) => (
    <CaseStudiesTeaser {...props} />
  )),
  component(
    'FaqSection',
    { intro: settings.faqIntro, faqs: pick(ofType('faq'), ['question', 'answer']) },
    (props) => <FaqSection {...props} />,
  ),
  component('ReviewsSection', { intro: settings.reviewsIntro, reviews }, (props) => (
    <ReviewsSection {...props} />
  )),
  component(
    'ContactSection',
    {
      intro: settings.contactIntro,
      email: settings.contactEmail,
      phone: settings.contactPhone,
      webhookUrl: settings.contactWebhookUrl,
    },
    (props) => <ContactSection {...props} />,
  ),
  component('SiteHeader', { brandName: settings.brandName }, (props) => <SiteHeader {...props} />),
  component(
    'SiteFooter',
    {
      brandName: settings.brandName,
      description: settings.description,
      email: settings.contactEmail,
      phone: settings.contactPhone,
    },
    (props) => <SiteFooter {...props} />,
  ),
  component('CaseStudyArticle', { study: article }, (props) => <CaseStudyArticle {...props} />, firstStudy),
  component(
    'CaseStudyCard (above the fold: its photo preloaded)',
    { study: cards[0]! },
    (props) => <CaseStudyCard {...props} headingLevel="h2" priority />,
    firstStudy,
  ),
  component(
    'CaseStudyCard (an issue shorter than the preview)',
    { study: { ...cards[1]!, issueText: 'Missed calls were lost patients.' } },
    (props) => <CaseStudyCard {...props} />,
    studies[1],
  ),
  component(
    'PortfolioCard',
    { site: sites[0]! },
    (props) => <PortfolioCard {...props} priority />,
    ofType('portfolioSite')[0],
  ),
  component('CardGridPage (/sites)', { intro: settings.portfolioIntro, items: sites }, (props) => (
    <CardGridPage
      eyebrow="Sites"
      title="Our Portfolio"
      intro={props.intro}
      columns="sm:grid-cols-2 lg:grid-cols-3"
      items={props.items}
      renderCard={(site, priority) => <PortfolioCard site={site} priority={priority} />}
    />
  )),
  component('PageHeader', { intro: settings.consultationIntro }, (props) => (
    <PageHeader eyebrow="Book a call" title="Free Consultation" intro={props.intro} />
  )),
  // No text of their own: the alt text is checked below.
  component(
    'ContentImage (a file, preloaded)',
    { image: svgImage(altOf(settingsDoc, 'heroImage')) },
    (props) => <ContentImage {...props} sizes="100vw" priority />,
    settingsDoc,
    false,
  ),
  component(
    'ContentImage (a photo, preloaded)',
    { image: photo(altOf(firstStudy)) },
    (props) => <ContentImage {...props} sizes="100vw" priority />,
    firstStudy,
    false,
  ),
  component(
    'ContentImage (an inlined drawing)',
    { image: drawing(altOf(firstStudy)) },
    (props) => <ContentImage {...props} sizes="100vw" />,
    firstStudy,
    false,
  ),
]

beforeEach(() => {
  document.head.innerHTML = ''
})

describe.each(cases)('$name with stega-encoded props', ({ props, document: source, view, text }) => {
  const encoded = encode(props, source)

  test('the props really are encoded', () => {
    expect(hasStega(JSON.stringify(encoded))).toBe(true)
  })

  test('no attribute (but the overlays’ own), nothing in <head> and no JSON-LD carries stega', () => {
    render(view(encoded as never))
    expect(stegaOutsideText()).toEqual([])
  })

  if (text)
    test('the visible text does (the overlays make it click-to-edit)', () => {
      const { container } = render(view(encoded as never))
      expect(hasStega(container.textContent ?? '')).toBe(true)
    })

  // The component's own markup only: React preloads an address once per document, so what
  // a second render adds to <head> says nothing (the test above checks <head> on first sight).
  test('cleaned, the markup is the one the clean props give', () => {
    const clean = render(view(props as never)).container.innerHTML
    const dirty = render(view(encoded as never)).container.innerHTML
    expect(stegaClean(dirty)).toBe(clean)
  })
})

test('an image keeps stega in its alt text (an <img>) or aria-label (an inline <svg>): the overlays read it there', () => {
  for (const image of [svgImage, photo, drawing].map((shape) => shape(altOf(firstStudy)))) {
    const { container, unmount } = render(<ContentImage image={encode(image, firstStudy)} sizes="100vw" />)
    const named = container.querySelector('img, svg')!
    expect(hasStega(named.getAttribute('alt') ?? named.getAttribute('aria-label') ?? '')).toBe(true)
    unmount()
  }
})

test('BookingWidget: the booking frame and the embed script load from clean addresses', async () => {
  const url = encode(settings.bookingWidgetUrl, settingsDoc)
  const scriptUrl = encode('https://booking.example.com/stega-embed.js', settingsDoc)
  expect(hasStega(url) && hasStega(scriptUrl)).toBe(true)
  render(<BookingWidget url={url} scriptUrl={scriptUrl} />)
  // next/script adds the embed script once the browser is idle after load.
  await waitFor(() => expect(document.querySelector('script[src*="stega-embed"]')).not.toBeNull())
  expect(document.querySelector('iframe')).toHaveAttribute('src', '/booking/')
  expect(stegaOutsideText()).toEqual([])
})

test('JsonLd: the whole object is cleaned, however deep', () => {
  const data = encode(
    {
      '@context': 'https://schema.org',
      '@graph': [organizationJsonLd(organization), { name: settings.heroHeadline }],
    },
    settingsDoc,
  )
  expect(hasStega(JSON.stringify(data))).toBe(true)
  render(<JsonLd data={data} />)
  expect(stegaOutsideText()).toEqual([])
  const script = document.querySelector('script[type="application/ld+json"]')!
  expect(JSON.parse(script.textContent!)).toEqual(stegaClean(data))
})

// --- lib/seo.ts and lib/text.ts -----------------------------------------------------------

describe('lib/seo: metadata and JSON-LD built from encoded content are clean, and what clean content gives', () => {
  const study = {
    slug: cards[0]!.slug,
    headline: article.detailTitle,
    description: cards[0]!.issueText,
    imageSrc: cards[0]!.image.src,
    createdAt: '2026-11-02T09:00:00Z',
    updatedAt: '2026-11-16T09:00:00Z',
  }
  const page = {
    title: article.detailTitle,
    description: cards[0]!.issueText,
    path: `/case-studies/${cards[0]!.slug}`,
    brandName: settings.brandName,
    defaultTitle: `${settings.brandName}: ${settings.heroHeadline}`,
    image: `/og/case-study-${cards[0]!.slug}.png`,
    imageAlt: `${settings.brandName}: ${settings.portfolioIntro}`,
    type: 'article' as const,
  }
  const faqs = pick(ofType('faq'), ['question', 'answer'])
  const section = { title: 'Our Portfolio', intro: settings.portfolioIntro, path: '/sites', card: 'sites' }
  const headline = { brandName: settings.brandName, heroHeadline: settings.heroHeadline }

  test.each([
    ['pageMetadata', () => pageMetadata(encode(page, firstStudy)), () => pageMetadata(page)],
    [
      'sectionPageMetadata',
      () => sectionPageMetadata(encode(headline, settingsDoc), encode(section, settingsDoc)),
      () => sectionPageMetadata(headline, section),
    ],
    ['siteTitle', () => siteTitle(encode(headline, settingsDoc)), () => siteTitle(headline)],
    [
      'organizationJsonLd',
      () => organizationJsonLd(encode(organization, settingsDoc)),
      () => organizationJsonLd(organization),
    ],
    [
      'faqPageJsonLd',
      () => faqPageJsonLd(encode(faqs, settingsDoc), encode(settings.siteUrl, settingsDoc)),
      () => faqPageJsonLd(faqs, settings.siteUrl),
    ],
    [
      'caseStudyJsonLd',
      () => caseStudyJsonLd(encode(study, firstStudy), encode(organization, settingsDoc)),
      () => caseStudyJsonLd(study, organization),
    ],
    [
      'metaDescription',
      () => metaDescription(encode(study.description, firstStudy)),
      () => metaDescription(study.description),
    ],
    [
      'absoluteUrl',
      () => absoluteUrl(encode(page.path, firstStudy), encode(settings.siteUrl, settingsDoc)),
      () => absoluteUrl(page.path, settings.siteUrl),
    ],
    [
      'caseStudyCardName',
      () => caseStudyCardName(encode(study.slug, firstStudy)),
      () => caseStudyCardName(study.slug),
    ],
    ['ogImagePath', () => ogImagePath(encode('sites', settingsDoc)), () => ogImagePath('sites')],
  ])('%s', (_name, fromEncoded, fromClean) => {
    const result = fromEncoded()
    expect(hasStega(JSON.stringify(result))).toBe(false)
    expect(result).toEqual(fromClean())
  })
})

test('lib/text telHref: a tel: link from an encoded phone number is clean', () => {
  expect(telHref(encode(settings.contactPhone, settingsDoc))).toBe('tel:+442079460321')
})
