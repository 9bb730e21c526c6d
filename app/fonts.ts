import localFont from 'next/font/local'

/**
 * Plus Jakarta Sans, variable, latin subset, self-hosted from its npm package
 * (no font request leaves the site). next/font adds a metric-matched fallback,
 * so swapping the font in causes no layout shift.
 */
export const jakarta = localFont({
  src: '../node_modules/@fontsource-variable/plus-jakarta-sans/files/plus-jakarta-sans-latin-wght-normal.woff2',
  variable: '--font-jakarta',
  weight: '200 800',
  display: 'swap',
})
