import { TextLink } from '@/components/ui/TextLink'
import { Section } from '@/components/ui/Section'
import { ReviewCard, type ReviewData } from './ReviewCard'
import { StaggerList } from '@/components/ui/Stagger'

/** Home section 7 (spec §2): four 5-star reviews and 'See More Like This' to /case-studies. */
export function ReviewsSection({ intro, reviews }: { intro: string; reviews: ReviewData[] }) {
  return (
    <Section id="reviews" eyebrow="Kind words" title="Reviews" intro={intro} tone="surface">
      <StaggerList className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
        {reviews.map((review) => (
          <li key={review._id}>
            <ReviewCard review={review} />
          </li>
        ))}
      </StaggerList>
      <TextLink href="/case-studies" className="mt-10">
        See More Like This
      </TextLink>
    </Section>
  )
}
