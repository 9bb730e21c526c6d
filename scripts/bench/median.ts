/** The median of measurements (the upper middle of an even count), leaving out NaN (e.g. Lighthouse's NO_LCP); NaN when none is left. */
export function median(values: readonly number[]): number {
  const finite = values.filter(Number.isFinite).sort((a, b) => a - b)
  return finite.length ? finite[Math.floor(finite.length / 2)]! : NaN
}

/** The item whose `key` is the median of the items' keys (the first when none is finite). */
export function medianBy<T>(items: readonly T[], key: (item: T) => number): T {
  const middle = median(items.map(key))
  return items.find((item) => key(item) === middle) ?? items[0]!
}
