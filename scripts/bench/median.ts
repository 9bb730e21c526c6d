/**
 * The median of measurements (the middle one of an odd count, the upper middle of an
 * even one): how every speed figure of `npm run bench` and `npm run audit:lighthouse`
 * is reported. A run that could not compute its figure (NaN, e.g. Lighthouse's
 * NO_LCP) is left out.
 * @param values measurements in any unit
 * @returns NaN when no value is a finite number
 */
export function median(values: readonly number[]): number {
  const finite = values.filter(Number.isFinite).sort((a, b) => a - b)
  return finite.length ? finite[Math.floor(finite.length / 2)]! : NaN
}
