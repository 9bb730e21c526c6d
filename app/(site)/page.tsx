import { AudienceSection } from '@/components/home/AudienceSection'
import { CaseStudiesTeaser } from '@/components/home/CaseStudiesTeaser'
import { ContactSection } from '@/components/home/ContactSection'
import { FaqSection } from '@/components/home/FaqSection'
import { Hero } from '@/components/home/Hero'
import { ReviewsSection } from '@/components/home/ReviewsSection'
import { ReviewsStrip } from '@/components/home/ReviewsStrip'
import { ServicesGrid } from '@/components/home/ServicesGrid'
import type { Metadata } from 'next'
import { JsonLd } from '@/components/seo/JsonLd'
import { getCaseStudyCards, getHomePage, getSiteSettings } from '@/lib/content'
import { pageSource } from '@/lib/content/page-source'
import { stegaClean } from 'next-sanity'
import { faqPageJsonLd, ogImagePath, pageMetadata, siteTitle } from '@/lib/seo'

/** Title, description and canonical '/' from site settings. */
export async function generateMetadata(): Promise<Metadata> {
  const settings = stegaClean(await getSiteSettings(await pageSource('always')))
  return pageMetadata({
    title: null,
    description: settings.description,
    path: '/',
    brandName: settings.brandName,
    defaultTitle: siteTitle(settings),
    image: ogImagePath('home'),
    imageAlt: siteTitle(settings),
  })
}

/** Home page: the spec's sections in order (§2); the footer comes from the layout. */
export default async function HomePage() {
  const source = await pageSource('always')
  const [settings, home, caseStudies] = await Promise.all([
    getSiteSettings(source),
    getHomePage(source),
    getCaseStudyCards(source),
  ])
  return (
    <>
      <Hero
        eyebrow={settings.heroEyebrow}
        headline={settings.heroHeadline}
        subheadline={settings.heroSubheadline}
        sellingPoints={settings.sellingPoints}
        image={settings.heroImage}
      />
      <ReviewsStrip reviews={home.stripReviews} />
      <ServicesGrid intro={settings.servicesIntro} services={home.services} />
      <AudienceSection
        intro={settings.audienceIntro}
        calculatorIntro={settings.calculatorIntro}
        cards={home.audienceCards}
        growthItems={home.growthItems}
      />
      <CaseStudiesTeaser intro={settings.caseStudiesIntro} studies={caseStudies} />
      <FaqSection intro={settings.faqIntro} faqs={home.faqs} />
      <ReviewsSection intro={settings.reviewsIntro} reviews={home.sectionReviews} />
      <ContactSection
        intro={settings.contactIntro}
        email={settings.contactEmail}
        phone={settings.contactPhone}
        webhookUrl={settings.contactWebhookUrl}
      />
      <JsonLd data={faqPageJsonLd(home.faqs, settings.siteUrl)} />
    </>
  )
}
