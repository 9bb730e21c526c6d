import { stegaClean } from 'next-sanity'
import { ConsultationButton } from '@/components/ui/ButtonLink'
import { ContentImage } from '@/components/ui/ContentImage'
import type { ContentImage as ContentImageData } from '@/lib/content/image'

/**
 * Home section 1 (spec §2): hero texts, selling points, the consultation button
 * and a preview image. Carries the `homepage` anchor. A selling point's key is its clean
 * text (stega: a key is an identity, never shown), the same in an editor's preview.
 */
export function Hero({
  eyebrow,
  headline,
  subheadline,
  sellingPoints,
  image,
}: {
  eyebrow: string
  headline: string
  subheadline: string
  sellingPoints: string[]
  image: ContentImageData
}) {
  return (
    <section id="homepage" aria-labelledby="hero-heading" className="overflow-hidden">
      <div className="content-width grid items-center gap-12 py-14 md:py-20 lg:grid-cols-[1.05fr_1fr] lg:gap-16 lg:py-24">
        <div>
          <p className="eyebrow text-accent">{eyebrow}</p>
          <h1 id="hero-heading" className="display mt-4 text-3xl sm:text-4xl">
            {headline}
          </h1>
          <p className="mt-6 max-w-prose text-lg font-semibold tracking-wide text-muted uppercase">
            {subheadline}
          </p>
          <ul className="mt-8 space-y-3">
            {sellingPoints.map((point) => (
              <li key={stegaClean(point)} className="flex items-start gap-3">
                <svg aria-hidden="true" viewBox="0 0 20 20" className="mt-1 size-5 shrink-0 text-accent">
                  <path
                    d="M4 10.5l4 4 8-9"
                    fill="none"
                    stroke="currentColor"
                    strokeWidth="2.25"
                    strokeLinecap="round"
                    strokeLinejoin="round"
                  />
                </svg>
                <span>{point}</span>
              </li>
            ))}
          </ul>
          <ConsultationButton className="mt-10" />
        </div>
        <div className="relative">
          <div aria-hidden="true" className="absolute -inset-6 -z-10 rounded-[2rem] bg-accent-soft" />
          <ContentImage
            image={image}
            priority
            sizes="(min-width: 1152px) 540px, (min-width: 1024px) 46vw, 100vw"
            className="rounded-ui border border-line shadow-lift"
          />
        </div>
      </div>
    </section>
  )
}
