import type { Metadata } from 'next'
import Link from 'next/link'
import { BookingWidget } from '@/components/consultation/BookingWidget'
import { PageHeader } from '@/components/ui/PageHeader'
import { getSiteSettings } from '@/lib/content'

export const metadata: Metadata = { title: 'Free Consultation' }

/** /consultation (spec §2): heading, the embedded booking widget, a link to /case-studies. */
export default async function ConsultationPage() {
  const settings = await getSiteSettings()
  return (
    <>
      <PageHeader eyebrow="Book a call" title="Free Consultation" intro={settings.consultationIntro} />
      <div className="content-width pb-20">
        <BookingWidget url={settings.bookingWidgetUrl} scriptUrl={settings.bookingScriptUrl ?? undefined} />
        <Link
          href="/case-studies"
          className="mt-8 inline-flex min-h-11 items-center gap-2 font-semibold text-accent hover:underline"
        >
          See our case studies <span aria-hidden="true">→</span>
        </Link>
      </div>
    </>
  )
}
