import { IntentLink } from '@/components/ui/IntentLink'
import { stegaClean } from 'next-sanity'
import { TextLink } from '@/components/ui/TextLink'
import { PortableText, type PortableTextBlock } from '@portabletext/react'
import { ConsultationButton } from '@/components/ui/ButtonLink'
import { ContentImage } from '@/components/ui/ContentImage'
import type { CaseStudy } from '@/lib/content'

/** What the detail page shows of a case study (spec §2, §3). */
export type CaseStudyArticleData = Pick<
  CaseStudy,
  'detailTitle' | 'issue' | 'solution' | 'outcome' | 'details' | 'image'
>

const boxes = [
  { key: 'issue', label: 'The Issue' },
  { key: 'solution', label: 'Our Solution' },
  { key: 'outcome', label: 'The Outcome' },
] as const

/** A case study's page (spec §2); a step's key is its text cleaned of stega. */
export function CaseStudyArticle({ study }: { study: CaseStudyArticleData }) {
  return (
    <article className="content-width pt-10 pb-20 md:pt-14 md:pb-28">
      <TextLink href="/case-studies" back>
        All case studies
      </TextLink>
      <h1 className="display mt-6 max-w-4xl text-2xl md:text-3xl">{study.detailTitle}</h1>
      <ContentImage
        image={study.image}
        priority
        sizes="(min-width: 1152px) 1088px, 100vw"
        className="mt-10 max-h-[520px] rounded-ui border border-line object-cover shadow-soft"
      />
      <div className="mt-12 grid gap-5 md:grid-cols-3">
        {boxes.map((box, index) => (
          <section
            key={box.key}
            aria-labelledby={`box-${box.key}`}
            className={`rounded-ui border p-7 ${index === 2 ? 'border-ink bg-ink text-on-ink' : 'border-line bg-surface'}`}
          >
            <h2
              id={`box-${box.key}`}
              className={`eyebrow ${index === 2 ? 'text-on-ink-muted' : 'text-accent'}`}
            >
              {box.label}
            </h2>
            <div className="mt-4 space-y-3 [&_p]:leading-relaxed">
              <PortableText value={study[box.key] as PortableTextBlock[]} />
            </div>
          </section>
        ))}
      </div>
      <section aria-labelledby="how-heading" className="mt-16 max-w-3xl">
        <h2 id="how-heading" className="display text-xl md:text-2xl">
          How We Did It
        </h2>
        <ol className="mt-8 space-y-5">
          {study.details.map((step, index) => (
            <li key={stegaClean(step)} className="flex gap-5">
              <span
                aria-hidden="true"
                className="flex size-10 shrink-0 items-center justify-center rounded-full bg-accent-soft font-bold text-accent tabular-nums"
              >
                {index + 1}
              </span>
              <p className="pt-2">{step}</p>
            </li>
          ))}
        </ol>
      </section>
      <div className="mt-14 flex flex-col gap-3 sm:flex-row">
        <ConsultationButton />
        <IntentLink
          href="/case-studies"
          className="inline-flex min-h-11 items-center justify-center gap-2 px-4 font-semibold text-ink hover:underline"
        >
          <span aria-hidden="true">←</span> Back to case studies
        </IntentLink>
      </div>
    </article>
  )
}
