import localFont from 'next/font/local'

/* The site font's two faces (docs/speed.md, "The web font"); next/font needs the ranges as literals, a test checks them. */

/** The preloaded core face and the metric-matched fallback. */
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

/** The rest of latin, fetched only by a page that uses it; no fallback of its own, so globals.css lists it first. */
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
