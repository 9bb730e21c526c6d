import Link from 'next/link'
import { stegaClean } from 'next-sanity'
import { CardShell } from '@/components/ui/CardShell'
import type { ContentImage as ContentImageData } from '@/lib/content/image'
import { excerpt } from '@/lib/text'

/** What a case study card needs: the issue as plain text is cut to 120 characters here. */
export type CaseStudyCardData = {
  _id: string
  title: string
  slug: string
  issueText: string
  image: ContentImageData
  /** In an editor's preview: the `data-sanity` link of the issue preview to its field. */
  issueSource?: string
}

/**
 * The card's preview of the issue: its first 120 characters. In an editor's preview (stega)
 * the cut is made on the clean text, so the invisible characters neither count toward the
 * 120 nor get cut in half (a short issue would gain an ellipsis, and the overlays could not
 * read what is left); the client appends them, so they go back after the cut, and the
 * preview stays click-to-edit. A clean text gives exactly `excerpt(issueText)`.
 */
function issuePreview(issueText: string): string {
  const text = stegaClean(issueText)
  const encoding = issueText.startsWith(text) ? issueText.slice(text.length) : ''
  return `${excerpt(text)}${encoding}`
}

/**
 * A case study card (spec §2 /case-studies): image, title, the first 120
 * characters of the issue plus an ellipsis, and 'Read case study'. The whole
 * card is one link to /case-studies/{slug}, with the clean slug (stega: an encoded URL
 * breaks). In an editor's preview the issue preview, computed text, is linked to the issue
 * field by its `data-sanity` attribute (`issueSource`), and it and the image sit above the
 * card's link, so the pointer reaches their click-to-edit overlays.
 * @param headingLevel 'h2' on /case-studies, 'h3' inside a home section
 * @param priority true for a card above the fold (its image loads first, see ContentImage)
 */
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
        <Link
          href={`/case-studies/${stegaClean(study.slug)}`}
          className="after:absolute after:inset-0 focus-visible:outline-none after:rounded-ui group-has-[:focus-visible]:after:outline-3 group-has-[:focus-visible]:after:outline-accent"
        >
          {study.title}
        </Link>
      </Heading>
      {/* Spread, not `data-sanity={undefined}`: visitors' payload names no attribute at all. In
          the preview it is positioned, so it sits above the stretched link and the pointer
          reaches its overlay (the title and "Read case study" still lead to the page). */}
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
