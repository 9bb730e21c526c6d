/** The Lighthouse targets (docs/speed.md, "Targets") as pure functions over samples, shared by `npm run audit:lighthouse` and its unit test. */
import { median } from '../bench/median.ts'

/** One Lighthouse run: scores 0-100, LCP and TBT in ms, CLS, and the HTML document's bytes on the wire (headers included). */
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

/** Simulated throttling's first round trip (10 segments of 1,460 B): a larger document pays one more (docs/speed.md). */
export const FIRST_ROUND_TRIP_BYTES = 14_600

/** The HTML document's transfer size from the `network-requests` audit's items; NaN when none is listed. */
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

/** The empty page's figures a route is compared with: the median of its `window` latest runs (the same few minutes). */
export function recentBaseline(emptySamples: readonly LighthouseSample[], window: number): LighthouseSample {
  return medianSample(emptySamples.slice(-Math.max(1, window)))
}

/** Lighthouse's two throttling modes: simulated (Lantern, what PageSpeed Insights shows) and applied. */
export type ThrottlingMode = 'simulate' | 'devtools'

/** Which page a route's LCP is compared with: its own copy without scripts for desktop with applied throttling (docs/speed.md, "Baselines"), else the empty page. */
export function lcpBaselineOf(preset: 'mobile' | 'desktop', mode: ThrottlingMode): 'empty' | 'scriptless' {
  return preset === 'desktop' && mode === 'devtools' ? 'scriptless' : 'empty'
}

/** Which targets (docs/speed.md, "Targets") a route's median misses against its baselines, one message each (e.g. 'LCP 1200 ms > 1.3 × 800'). */
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
