/**
 * @jest-environment node
 */
import type {
  Answer,
  Article,
  ContactPoint,
  FAQPage,
  ProfessionalService,
  Question,
  WithContext,
} from 'schema-dts'
import {
  caseStudyCardName,
  caseStudyJsonLd,
  faqPageJsonLd,
  metaDescription,
  ogImagePath,
  organizationJsonLd,
  pageMetadata,
} from '@/lib/seo'

const settings = {
  brandName: 'Elevate Local',
  description: 'Fast websites and automations for local businesses.',
  siteUrl: 'https://www.example.co.uk',
  contactEmail: 'hello@example.co.uk',
  contactPhone: '+44 20 7946 0321',
}

// The shapes the site promises search engines; the `satisfies` checks keep them in step with schema-dts.
const contactPoint = {
  '@type': 'ContactPoint',
  contactType: 'customer service',
  email: 'hello@example.co.uk',
  telephone: '+442079460321',
  availableLanguage: 'en-GB',
  areaServed: 'GB',
} satisfies ContactPoint

describe('organizationJsonLd', () => {
  test('is a ProfessionalService with a ContactPoint from the settings’ e-mail and phone', () => {
    const data: WithContext<ProfessionalService> = organizationJsonLd(settings)
    expect(data).toEqual({
      '@context': 'https://schema.org',
      '@type': 'ProfessionalService',
      '@id': 'https://www.example.co.uk/#organization',
      name: 'Elevate Local',
      description: settings.description,
      url: 'https://www.example.co.uk/',
      logo: 'https://www.example.co.uk/apple-icon.png',
      image: 'https://www.example.co.uk/og/home.png',
      email: 'hello@example.co.uk',
      telephone: '+442079460321',
      contactPoint,
    } satisfies WithContext<ProfessionalService>)
  })
})

describe('faqPageJsonLd', () => {
  test('lists every FAQ as a Question with an accepted Answer, in order', () => {
    const faqs = [
      { question: 'How long does it take?', answer: '5 to 7 days.' },
      { question: 'What does it cost?', answer: 'An upfront fee plus a monthly retainer.' },
    ]
    const data: WithContext<FAQPage> = faqPageJsonLd(faqs, settings.siteUrl)
    const question = (name: string, text: string) =>
      ({
        '@type': 'Question',
        name,
        acceptedAnswer: { '@type': 'Answer', text } satisfies Answer,
      }) satisfies Question
    expect(data).toEqual({
      '@context': 'https://schema.org',
      '@type': 'FAQPage',
      url: 'https://www.example.co.uk/',
      mainEntity: [
        question('How long does it take?', '5 to 7 days.'),
        question('What does it cost?', 'An upfront fee plus a monthly retainer.'),
      ],
    } satisfies WithContext<FAQPage>)
  })
})

describe('caseStudyJsonLd', () => {
  const study = {
    slug: 'osteopath-lancing',
    headline: 'How an Osteopath Stopped Losing Patients',
    description: `A clinic   lost calls.\n${'x'.repeat(300)}`,
    imageSrc: '/media/abc-1200x800.svg',
    createdAt: '2026-11-02T09:00:00Z',
    updatedAt: '2026-11-16T09:00:00Z',
  }

  test('is an Article at the slug’s address, published by the organisation, with its dates', () => {
    const data: WithContext<Article> = caseStudyJsonLd(study, settings)
    const url = 'https://www.example.co.uk/case-studies/osteopath-lancing'
    const publisher = {
      '@type': 'ProfessionalService',
      '@id': 'https://www.example.co.uk/#organization',
      name: 'Elevate Local',
    } as const
    expect(data).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Article',
      '@id': `${url}#article`,
      headline: study.headline,
      description: metaDescription(study.description),
      url,
      mainEntityOfPage: url,
      image: 'https://www.example.co.uk/media/abc-1200x800.svg',
      inLanguage: 'en-GB',
      datePublished: '2026-11-02T09:00:00Z',
      dateModified: '2026-11-16T09:00:00Z',
      author: publisher,
      publisher,
    } satisfies WithContext<Article>)
  })

  test('leaves the dates out when the document has none', () => {
    const data = caseStudyJsonLd({ ...study, createdAt: null, updatedAt: undefined }, settings)
    expect(data).not.toHaveProperty('datePublished')
    expect(data).not.toHaveProperty('dateModified')
  })
})

describe('metaDescription', () => {
  test('collapses whitespace and cuts at 155 characters with an ellipsis', () => {
    expect(metaDescription('One\n\n  two')).toBe('One two')
    const long = metaDescription('word '.repeat(60))
    expect(Array.from(long).length).toBeLessThanOrEqual(156)
    expect(long.endsWith('…')).toBe(true)
  })
})

describe('pageMetadata', () => {
  test('gives the title, description, canonical path and share card of a page', () => {
    const image = ogImagePath(caseStudyCardName('osteopath-lancing'))
    const meta = pageMetadata({
      title: 'How an Osteopath Stopped Losing Patients',
      description: 'A clinic lost calls.',
      path: '/case-studies/osteopath-lancing',
      brandName: 'Elevate Local',
      defaultTitle: 'Elevate Local: SITES.',
      image,
      imageAlt: 'Case study',
      type: 'article',
    })
    const images = [
      {
        url: '/og/case-study-osteopath-lancing.png',
        width: 1200,
        height: 630,
        alt: 'Case study',
        type: 'image/png',
      },
    ]
    expect(meta).toEqual({
      title: 'How an Osteopath Stopped Losing Patients',
      description: 'A clinic lost calls.',
      alternates: { canonical: '/case-studies/osteopath-lancing' },
      openGraph: {
        type: 'article',
        url: '/case-studies/osteopath-lancing',
        siteName: 'Elevate Local',
        locale: 'en_GB',
        title: 'How an Osteopath Stopped Losing Patients | Elevate Local',
        description: 'A clinic lost calls.',
        images,
      },
      twitter: {
        card: 'summary_large_image',
        title: 'How an Osteopath Stopped Losing Patients | Elevate Local',
        description: 'A clinic lost calls.',
        images,
      },
    })
  })

  test('the home page keeps the layout’s default title', () => {
    const meta = pageMetadata({
      title: null,
      description: 'd',
      path: '/',
      brandName: 'B',
      defaultTitle: 'B: Headline',
      image: ogImagePath('home'),
      imageAlt: 'B: Headline',
    })
    expect(meta).not.toHaveProperty('title')
    expect(meta.openGraph?.title).toBe('B: Headline')
  })
})
