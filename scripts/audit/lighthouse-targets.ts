/** The Lighthouse targets (docs/speed.md, "Targets") as pure functions over samples, shared by `npm run audit:lighthouse` and its unit test. */
import { median } from '../bench/median.ts'

/**
 * One Lighthouse run's figures: scores 0-100, LCP and TBT in ms, CLS unitless, and the
 * bytes the page's HTML document took on the wire (body and headers).
 */
export type LighthouseSample = {
  performance: number
  accessibility: number
  bestPractices: number
  seo: number
  lcp: number
  cls: number
  tbt: number
  documentBytes: number
}

/**
 * What simulated throttling (Lighthouse's Lantern model, what PageSpeed Insights shows)
 * sends in its first round trip: TCP's initial window of 10 segments of 1,460 bytes.
 * A document larger than this, headers included, costs a whole extra round trip before
 * the first paint (150 ms on the mobile preset): home read 14,724 B and LCP 1,071 ms
 * against 14,489 B and 920 ms (empty page 811).
 */
export const FIRST_ROUND_TRIP_BYTES = 14_600

/**
 * The transfer size of a run's HTML document, from Lighthouse's `network-requests` audit.
 * @param items that audit's `details.items` ({resourceType, transferSize}, in request order)
 * @returns bytes, or NaN when no document is listed
 */
export function documentTransferBytes(
  items: readonly { resourceType?: string; transferSize?: number }[],
): number {
  return items.find((item) => item.resourceType === 'Document')?.transferSize ?? NaN
}

/** The median of every figure, each taken on its own (median of 3 in the reports). */
export function medianSample(samples: readonly LighthouseSample[]): LighthouseSample {
  if (!samples.length) throw new Error('medianSample: no samples')
  return Object.fromEntries(
    (Object.keys(samples[0]!) as (keyof LighthouseSample)[]).map((key) => [
      key,
      median(samples.map((sample) => sample[key])),
    ]),
  ) as LighthouseSample
}

/**
 * The empty page's figures a route is compared with: the median of its `window` most
 * recent runs. The audit measures the empty page again before every route, so on this
 * shared, noisy machine each route is compared with the empty page of the same few
 * minutes, not with one measured at the start of a long run.
 * @param emptySamples the empty page's runs so far, oldest first
 * @param window how many of the latest runs count (the audit's --runs, 3)
 * @throws when there is no run yet
 */
export function recentBaseline(emptySamples: readonly LighthouseSample[], window: number): LighthouseSample {
  return medianSample(emptySamples.slice(-Math.max(1, window)))
}

/** Lighthouse's two throttling modes: simulated (Lantern, what PageSpeed Insights shows) and applied. */
export type ThrottlingMode = 'simulate' | 'devtools'

/**
 * Which page a route's LCP is compared with. The desktop preset with applied throttling
 * (`devtools`) throttles neither the network nor the CPU, so it measures rendering
 * alone: against an empty page it would measure what the route's own content costs to
 * draw. There the route is compared with its own copy without any `<script>` (built
 * from the same export, served the same way, in the same run), which leaves the
 * framework's cost. Every other preset and mode compares with the empty Next.js page.
 */
export function lcpBaselineOf(preset: 'mobile' | 'desktop', mode: ThrottlingMode): 'empty' | 'scriptless' {
  return preset === 'desktop' && mode === 'devtools' ? 'scriptless' : 'empty'
}

/**
 * Which targets a route's median misses, against the empty page's (and, where
 * `lcpBaselineOf` says so, against its own copy without scripts).
 * LCP at most 1.3x of its baseline; CLS 0; TBT at most 1.3x (or 10 ms more, for an empty page that
 * reads near 0); mobile performance at least the empty page's minus 2; desktop
 * performance 100; accessibility, best practices and SEO 100, except on the 404 page
 * (noindex on purpose).
 * @returns one message per missed target, e.g. 'LCP 1200 ms > 1.3 × 800'; empty when all are met
 * @throws Error when the baseline is 'scriptless' and no such sample is given
 */
export function missedTargets({
  site,
  empty,
  scriptless,
  preset,
  mode,
  notFoundPage,
}: {
  site: LighthouseSample
  empty: LighthouseSample
  /** the route's copy without scripts; required where `lcpBaselineOf` says 'scriptless' */
  scriptless?: LighthouseSample
  preset: 'mobile' | 'desktop'
  mode: ThrottlingMode
  notFoundPage: boolean
}): string[] {
  const misses: string[] = []
  if (lcpBaselineOf(preset, mode) === 'scriptless') {
    if (!scriptless)
      throw new Error(`missedTargets: ${preset} ${mode} compares LCP with the page without scripts`)
    if (site.lcp > 1.3 * scriptless.lcp)
      misses.push(`LCP ${site.lcp} ms > 1.3 × ${scriptless.lcp} (same page without scripts)`)
  } else if (site.lcp > 1.3 * empty.lcp) misses.push(`LCP ${site.lcp} ms > 1.3 × ${empty.lcp}`)
  if (site.cls > 0) misses.push(`CLS ${site.cls}`)
  if (site.tbt > Math.max(1.3 * empty.tbt, empty.tbt + 10))
    misses.push(`TBT ${site.tbt} ms > 1.3 × ${empty.tbt}`)
  if (preset === 'mobile' && site.performance < empty.performance - 2)
    misses.push(`performance ${site.performance} < ${empty.performance} - 2`)
  if (preset === 'desktop' && site.performance < 100) misses.push(`desktop performance ${site.performance}`)
  if (!notFoundPage)
    for (const key of ['accessibility', 'bestPractices', 'seo'] as const)
      if (site[key] < 100) misses.push(`${key} ${site[key]}`)
  return misses
}
