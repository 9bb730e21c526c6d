import { Stars } from '@/components/ui/Stars'

/** A review as the home page shows it (spec §3). */
export type ReviewData = { _id: string; name: string; business: string; text: string; stars: number }

/**
 * One review: stars, quote, name and business.
 * @param compact true in the scrolling strip (fixed 300 px wide card)
 */
export function ReviewCard({ review, compact = false }: { review: ReviewData; compact?: boolean }) {
  return (
    <figure
      className={`flex h-full flex-col rounded-ui border border-line bg-surface p-6 shadow-soft ${compact ? 'w-[300px] shrink-0' : ''}`}
    >
      <Stars count={review.stars} />
      <blockquote className={`mt-4 flex-1 ${compact ? 'text-sm' : 'text-base'} text-ink`}>
        <p>“{review.text}”</p>
      </blockquote>
      <figcaption className="mt-5 text-sm">
        <span className="block font-semibold text-ink">{review.name}</span>
        <span className="text-muted">{review.business}</span>
      </figcaption>
    </figure>
  )
}
