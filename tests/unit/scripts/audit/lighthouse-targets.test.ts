/**
 * @jest-environment node
 */
import {
  type LighthouseSample,
  documentTransferBytes,
  medianSample,
  missedTargets,
  lcpBaselineOf,
  recentBaseline,
} from '../../../../scripts/audit/lighthouse-targets'

const sample = (over: Partial<LighthouseSample> = {}): LighthouseSample => ({
  performance: 99,
  accessibility: 100,
  bestPractices: 100,
  seo: 100,
  lcp: 800,
  cls: 0,
  tbt: 200,
  documentBytes: 14_000,
  ...over,
})

describe('documentTransferBytes', () => {
  it("is the HTML document's transfer size, not the first request's", () => {
    expect(
      documentTransferBytes([
        { resourceType: 'Other', transferSize: 300 },
        { resourceType: 'Document', transferSize: 14_489 },
        { resourceType: 'Script', transferSize: 40_000 },
      ]),
    ).toBe(14_489)
  })

  it('is NaN when no document was listed', () => {
    expect(documentTransferBytes([{ resourceType: 'Image', transferSize: 1 }])).toBeNaN()
  })
})

describe('medianSample', () => {
  it('takes the median of each figure on its own', () => {
    expect(
      medianSample([
        sample({ lcp: 900, tbt: 100 }),
        sample({ lcp: 700, tbt: 300 }),
        sample({ lcp: 800, tbt: 200 }),
      ]),
    ).toEqual(sample({ lcp: 800, tbt: 200 }))
  })

  it('refuses an empty list', () => {
    expect(() => medianSample([])).toThrow('no samples')
  })
})

describe('recentBaseline (the empty page a route is compared with)', () => {
  it('is the median of the latest `window` runs only', () => {
    const runs = [700, 710, 720, 1000, 1100, 1050].map((lcp) => sample({ lcp }))
    expect(recentBaseline(runs, 3).lcp).toBe(1050)
    expect(recentBaseline(runs.slice(0, 4), 3).lcp).toBe(720)
  })

  it('uses what there is when fewer runs than the window exist', () => {
    expect(recentBaseline([sample({ lcp: 640 })], 3).lcp).toBe(640)
  })
})

describe('missedTargets', () => {
  const empty = sample()

  it('meets every target at exactly 1.3x LCP and TBT', () => {
    expect(
      missedTargets({
        site: sample({ lcp: 1040, tbt: 260 }),
        empty,
        preset: 'mobile',
        mode: 'simulate',
        notFoundPage: false,
      }),
    ).toEqual([])
  })

  it('names each missed target', () => {
    expect(
      missedTargets({
        site: sample({ lcp: 1041, tbt: 261, cls: 0.002, performance: 96, seo: 92 }),
        empty,
        preset: 'mobile',
        mode: 'simulate',
        notFoundPage: false,
      }),
    ).toEqual([
      'LCP 1041 ms > 1.3 × 800',
      'CLS 0.002',
      'TBT 261 ms > 1.3 × 200',
      'performance 96 < 99 - 2',
      'seo 92',
    ])
  })

  it('gives an empty page with near-zero TBT 10 ms of slack', () => {
    const quiet = sample({ tbt: 0 })
    expect(
      missedTargets({
        site: sample({ tbt: 10 }),
        empty: quiet,
        preset: 'desktop',
        mode: 'simulate',
        notFoundPage: false,
      }),
    ).toEqual(['desktop performance 99'])
    expect(
      missedTargets({
        site: sample({ tbt: 11 }),
        empty: quiet,
        preset: 'desktop',
        mode: 'simulate',
        notFoundPage: false,
      }),
    ).toContain('TBT 11 ms > 1.3 × 0')
  })

  it('asks desktop for 100 and the 404 page for no a11y/BP/SEO 100 (noindex on purpose)', () => {
    expect(
      missedTargets({
        site: sample({ performance: 100 }),
        empty,
        preset: 'desktop',
        mode: 'simulate',
        notFoundPage: false,
      }),
    ).toEqual([])
    expect(
      missedTargets({
        site: sample({ performance: 98, seo: 60 }),
        empty,
        preset: 'mobile',
        mode: 'simulate',
        notFoundPage: true,
      }),
    ).toEqual([])
  })

  it('compares desktop LCP under applied throttling with the same page without scripts, not the empty page', () => {
    expect(lcpBaselineOf('desktop', 'devtools')).toBe('scriptless')
    for (const [preset, mode] of [
      ['mobile', 'devtools'],
      ['mobile', 'simulate'],
      ['desktop', 'simulate'],
    ] as const)
      expect(lcpBaselineOf(preset, mode)).toBe('empty')
    const site = sample({ lcp: 156, performance: 100 })
    const fast = sample({ lcp: 80 })
    // /consultation: 156 ms against 138 ms without scripts is met although the empty page read 80.
    expect(
      missedTargets({
        site,
        empty: fast,
        scriptless: sample({ lcp: 138 }),
        preset: 'desktop',
        mode: 'devtools',
        notFoundPage: false,
      }),
    ).toEqual([])
    expect(
      missedTargets({
        site,
        empty: fast,
        scriptless: sample({ lcp: 119 }),
        preset: 'desktop',
        mode: 'devtools',
        notFoundPage: false,
      }),
    ).toEqual(['LCP 156 ms > 1.3 × 119 (same page without scripts)'])
    // The same figures in simulated mode still answer to the empty page.
    expect(
      missedTargets({
        site,
        empty: fast,
        scriptless: sample({ lcp: 138 }),
        preset: 'desktop',
        mode: 'simulate',
        notFoundPage: false,
      }),
    ).toEqual(['LCP 156 ms > 1.3 × 80'])
  })

  it('refuses to judge desktop applied throttling without the page without scripts', () => {
    expect(() =>
      missedTargets({
        site: sample(),
        empty: sample(),
        preset: 'desktop',
        mode: 'devtools',
        notFoundPage: false,
      }),
    ).toThrow('without scripts')
  })
})
