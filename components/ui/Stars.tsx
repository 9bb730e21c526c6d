/**
 * A row of stars with its count for screen readers (spec §9: each review has 5 stars).
 * @param count number of stars, 1-5
 */
export function Stars({ count }: { count: number }) {
  return (
    <p className="flex gap-0.5 text-star" role="img" aria-label={`${count} out of 5 stars`}>
      {Array.from({ length: count }, (_, index) => (
        <svg key={index} aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
          <path d="M10 1.5l2.6 5.4 5.9.8-4.3 4.1 1 5.8L10 14.8l-5.2 2.8 1-5.8L1.5 7.7l5.9-.8L10 1.5z" />
        </svg>
      ))}
    </p>
  )
}
