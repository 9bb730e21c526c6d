/** One star in a 20 x 20 box, as relative moves after its start point (so it can be repeated). */
const STAR = 'l2.6 5.4 5.9.8-4.3 4.1 1 5.8-5.2-2.8-5.2 2.8 1-5.8-4.3-4.1 5.9-.8z'
/** Star size and the step from one star to the next, in viewBox units (20 = 1rem: a 2 px gap). */
const SIZE = 20
const STEP = 22.5

/**
 * A row of stars with its count for screen readers (spec §9: each review has 5 stars).
 * One `<svg>` with one path for the whole row, not an `<svg>` a star: the home page
 * draws 14 rows, and 140 fewer elements to style and lay out before the first paint.
 * Its width follows from its height (1rem) and its viewBox.
 * @param count number of stars, 1-5
 */
export function Stars({ count }: { count: number }) {
  const width = SIZE + STEP * (count - 1)
  const path = Array.from({ length: count }, (_, index) => `M${10 + STEP * index} 1.5${STAR}`).join('')
  return (
    <svg
      role="img"
      aria-label={`${count} out of 5 stars`}
      viewBox={`0 0 ${width} ${SIZE}`}
      width={(width * 16) / SIZE}
      height={16}
      className="block h-4 w-auto self-start fill-current text-star"
    >
      <path d={path} />
    </svg>
  )
}
