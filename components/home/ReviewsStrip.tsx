import { ReviewCard, type ReviewData } from './ReviewCard'

/**
 * Home section 2 (spec §2, §9): the scrolling reviews strip. The list is drawn
 * twice for a seamless loop (the copy is hidden from assistive technology);
 * cards are 300 px wide and one loop takes 25 s. Hover or focus pauses it;
 * under reduced motion it does not move and scrolls by hand instead.
 */
export function ReviewsStrip({ reviews }: { reviews: ReviewData[] }) {
  return (
    <section aria-label="What our clients say" className="border-y border-line bg-surface py-10">
      <div className="overflow-x-auto motion-safe:overflow-hidden">
        <div className="flex w-max pl-6 motion-safe:animate-marquee hover:[animation-play-state:paused] focus-within:[animation-play-state:paused]">
          {[0, 1].map((copy) => (
            <ul key={copy} aria-hidden={copy === 1 || undefined} className="flex gap-6 pr-6">
              {reviews.map((review) => (
                <li key={review._id} className="flex">
                  <ReviewCard review={review} compact />
                </li>
              ))}
            </ul>
          ))}
        </div>
      </div>
    </section>
  )
}
