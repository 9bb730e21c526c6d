import localFont from 'next/font/local'

/*
 * Plus Jakarta Sans, variable, self-hosted from its npm package (no font request
 * leaves the site), as two faces split by `unicode-range`, the way Google Fonts
 * splits scripts (scripts/fonts/subsets.ts says why and makes both):
 * - `jakarta`: the core subset (ASCII and English punctuation, weights 400-800),
 *   13.7 KB, one TCP round trip; preloaded, since every page uses it above the fold;
 * - `jakartaExtended`: the rest of the package's latin file (accented letters,
 *   rarer symbols), subset the same way, not preloaded: the browser fetches it
 *   only for a page whose text has such a character.
 * The ranges are literals because next/font reads its options at compile time;
 * tests/unit/fonts.test.ts checks they are the core and the package's latin minus it.
 *
 * `display: 'optional'`: a page uses the font only if it is there for the first
 * paint (on a fast connection, or from the cache on every later page); otherwise it
 * keeps next/font's metric-matched fallback. With 'swap' a font arriving after the
 * first paint re-wrapped text and shifted the layout (CLS 0.028 on case study pages
 * with Lighthouse's applied throttling, 0.01 on the 404 page, which Next does not
 * preload the font for).
 */

/** The core face and the metric-matched fallback (its `variable` is `--font-jakarta`). */
export const jakarta = localFont({
  src: '../assets/fonts/plus-jakarta-sans-core.woff2',
  variable: '--font-jakarta',
  weight: '400 800',
  display: 'optional',
  declarations: [
    {
      prop: 'unicode-range',
      value:
        'U+20-7E, U+A0, U+A3, U+A9, U+AE, U+B0, U+B7, U+D7, U+2007, U+2013-2014, U+2018-2019, U+201C-201D, U+2022, U+2026, U+20AC, U+2122',
    },
  ],
})

/**
 * The extended face (`--font-jakarta-extended`), no fallback of its own: for a
 * character outside its range the browser goes on to `jakarta`, then to the
 * fallback. So globals.css lists it first.
 */
export const jakartaExtended = localFont({
  src: '../assets/fonts/plus-jakarta-sans-extended.woff2',
  variable: '--font-jakarta-extended',
  weight: '400 800',
  display: 'optional',
  preload: false,
  adjustFontFallback: false,
  declarations: [
    {
      prop: 'unicode-range',
      value:
        'U+0-1F, U+7F-9F, U+A1-A2, U+A4-A8, U+AA-AD, U+AF, U+B1-B6, U+B8-D6, U+D8-FF, U+131, U+152-153, U+2BB-2BC, U+2C6, U+2DA, U+2DC, U+304, U+308, U+329, U+2000-2006, U+2008-2012, U+2015-2017, U+201A-201B, U+201E-2021, U+2023-2025, U+2027-206F, U+2191, U+2193, U+2212, U+2215, U+FEFF, U+FFFD',
    },
  ],
})
