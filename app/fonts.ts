import localFont from 'next/font/local'

/**
 * Plus Jakarta Sans, variable, latin subset, self-hosted from its npm package
 * (no font request leaves the site) and preloaded (every page uses it above the fold).
 * `display: 'optional'`: a page uses the font only if it is there for the first
 * paint (on a fast connection, or from the cache on every later page); otherwise it
 * keeps next/font's metric-matched fallback. With 'swap' a font arriving after the
 * first paint re-wrapped text and shifted the layout (CLS 0.028 on case study pages
 * with Lighthouse's applied throttling, 0.01 on the 404 page, which Next does not
 * preload the font for).
 */
export const jakarta = localFont({
  src: '../node_modules/@fontsource-variable/plus-jakarta-sans/files/plus-jakarta-sans-latin-wght-normal.woff2',
  variable: '--font-jakarta',
  weight: '200 800',
  display: 'optional',
})
