import type { Metadata } from 'next'
import { TextLink } from '@/components/ui/TextLink'
import { BookingWidget } from '@/components/consultation/BookingWidget'
import { PageHeader } from '@/components/ui/PageHeader'
import { ScrollToTop } from '@/components/layout/ScrollToTop'
import { sectionPageMetadata } from '@/lib/seo'
import { getSiteSettings } from '@/lib/content'
import { pageSource } from '@/lib/content/page-source'
import { stegaClean } from 'next-sanity'

/** Title, description (the page's intro) and canonical URL from site settings. */
export async function generateMetadata(): Promise<Metadata> {
  const settings = stegaClean(await getSiteSettings(await pageSource('always')))
  return sectionPageMetadata(settings, {
    title: 'Free Consultation',
    intro: settings.consultationIntro,
    path: '/consultation',
    card: 'consultation',
  })
}

/** /consultation (spec §2): heading, the embedded booking widget, a link to /case-studies. */
export default async function ConsultationPage() {
  const source = await pageSource('always')
  const settings = await getSiteSettings(source)
  return (
    <>
      <ScrollToTop />
      <PageHeader eyebrow="Book a call" title="Free Consultation" intro={settings.consultationIntro} />
      <div className="content-width pb-20">
        <BookingWidget url={settings.bookingWidgetUrl} scriptUrl={settings.bookingScriptUrl ?? undefined} />
        <TextLink href="/case-studies" className="mt-8">
          See our case studies
        </TextLink>
      </div>
    </>
  )
}
