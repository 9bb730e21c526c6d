import { IntentLink } from '@/components/ui/IntentLink'
import { stegaClean } from 'next-sanity'
import { CardShell } from '@/components/ui/CardShell'
import type { ContentImage as ContentImageData } from '@/lib/content/image'
import { excerpt } from '@/lib/text'

export type CaseStudyCardData = {
  _id: string
  title: string
  slug: string
  issueText: string
  image: ContentImageData
  /** In an editor's preview: the issue preview's `data-sanity` link to its field. */
  issueSource?: string
}

/** The issue's first 120 characters, cut on the clean text with its stega put back after (spec §9). */
function issuePreview(issueText: string): string {
  const text = stegaClean(issueText)
  const encoding = issueText.startsWith(text) ? issueText.slice(text.length) : ''
  return `${excerpt(text)}${encoding}`
}

/** A case study card (spec §2 /case-studies), one link to its page; `headingLevel` 'h2' on /case-studies. */
export function CaseStudyCard({
  study,
  headingLevel: Heading = 'h3',
  priority = false,
}: {
  study: CaseStudyCardData
  headingLevel?: 'h2' | 'h3'
  priority?: boolean
}) {
  return (
    <CardShell image={study.image} priority={priority} linked editable={Boolean(study.issueSource)}>
      <Heading className="text-xl font-bold">
        <IntentLink
          href={`/case-studies/${stegaClean(study.slug)}`}
          className="after:absolute after:inset-0 focus-visible:outline-none after:rounded-ui group-has-[:focus-visible]:after:outline-3 group-has-[:focus-visible]:after:outline-accent"
        >
          {study.title}
        </IntentLink>
      </Heading>
      {/* Spread: visitors' payload names no attribute; positioned above the link in the preview. */}
      <p
        {...(study.issueSource && { 'data-sanity': study.issueSource, style: { position: 'relative' } })}
        className="mt-3 flex-1 text-muted"
      >
        {issuePreview(study.issueText)}
      </p>
      <p aria-hidden="true" className="mt-5 font-semibold text-accent">
        {'Read case study'}{' '}
        <span className="inline-block transition-transform group-hover:translate-x-1">→</span>
      </p>
    </CardShell>
  )
}
