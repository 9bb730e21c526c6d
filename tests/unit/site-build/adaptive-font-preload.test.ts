/**
 * @jest-environment node
 */
import { runInNewContext } from 'node:vm'
import { JSDOM } from 'jsdom'
import {
  adaptiveFontPreload,
  fontPreloadScript,
  preloadPageFonts,
} from '../../../site-build/adaptive-font-preload'
import { fontPreloadLink } from '../../../site-build/next-export-shape'

const core = '/_next/static/media/plus_jakarta_sans_core-s.p.05qln-vqg_dv5.woff2'
const extended = '/_next/static/media/plus_jakarta_sans_extended.0vi0ioj0ffkw6.woff2'
const css = `@font-face{font-family:jakarta;src:url(${core}) format("woff2")}@font-face{font-family:jakartaExtended;src:url(${extended}) format("woff2")}`
const page = (head: string) =>
  `<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><meta name="viewport" content="width=device-width"/>${head}<style>${css}</style></head><body><h1>404</h1></body></html>`

test("Next's preload link becomes the adaptive preload, first in <head>; a face not marked for preloading is never added", () => {
  const html = preloadPageFonts(page(`<link rel="icon" href="/i.svg"/>${fontPreloadLink(core)}`))
  expect(html).toBe(page(`${adaptiveFontPreload([core])}<link rel="icon" href="/i.svg"/>`))
  expect(html).not.toContain(`href="${extended}"`)
  expect(html).not.toContain(`${extended}"]`)
})

test('a page whose CSS uses the face but has no preload for it (the 404 page) gets the adaptive preload too', () => {
  expect(preloadPageFonts(page(''))).toBe(page(adaptiveFontPreload([core])))
})

test('a page already rewritten, or without next/font CSS, is unchanged', () => {
  const done = preloadPageFonts(page(fontPreloadLink(core)))
  expect(preloadPageFonts(done)).toBe(done)
  const plain = '<!DOCTYPE html><html><head><title>x</title></head><body></body></html>'
  expect(preloadPageFonts(plain)).toBe(plain)
})

describe('the inline script', () => {
  /**
   * Runs the script in a document with the given Network Information API (or none),
   * `sinceRequestMs` after the page's request was sent (Navigation Timing; or none).
   */
  const preloadsWith = (connection?: { effectiveType: string }, sinceRequestMs?: number) => {
    const { window } = new JSDOM('<!DOCTYPE html><html><head></head><body></body></html>')
    const navigation = sinceRequestMs === undefined ? [] : [{ requestStart: 40 }]
    runInNewContext(fontPreloadScript([core]), {
      document: window.document,
      navigator: connection ? { connection } : {},
      performance: {
        now: () => 40 + (sinceRequestMs ?? 0),
        getEntriesByType: (type: string) => (type === 'navigation' ? navigation : []),
      },
    })
    return [...window.document.head.querySelectorAll('link')].map((link) => link.outerHTML)
  }
  const preload = `<link rel="preload" as="font" crossorigin="" type="font/woff2" href="${core}">`

  test('preloads on a fast connection, and where the browser does not say (Safari, Firefox)', () => {
    expect(preloadsWith({ effectiveType: '4g' })).toEqual([preload])
    expect(preloadsWith()).toEqual([preload])
  })

  test('does not on a connection too slow for the font to arrive before the first paint', () => {
    for (const effectiveType of ['slow-2g', '2g', '3g']) expect(preloadsWith({ effectiveType })).toEqual([])
  })

  test("the page's own request decides too: sent 270 ms or more before the script runs means slow, whatever the API says", () => {
    expect(preloadsWith(undefined, 269)).toEqual([preload])
    expect(preloadsWith(undefined, 270)).toEqual([])
    // Chromium under DevTools' network emulation says 4g after a navigation (Lighthouse's 562 ms round trips).
    expect(preloadsWith({ effectiveType: '4g' }, 565)).toEqual([])
    expect(preloadsWith({ effectiveType: '4g' }, 3)).toEqual([preload])
    expect(preloadsWith({ effectiveType: '3g' }, 3)).toEqual([])
  })

  test('without JavaScript the <noscript> keeps the plain link', () => {
    const { window } = new JSDOM(page(adaptiveFontPreload([core])))
    // jsdom parses <noscript> content as markup when scripting is off, as a browser without JavaScript does.
    expect(window.document.querySelector('noscript')?.innerHTML).toBe(
      fontPreloadLink(core).replace('/>', '>'),
    )
  })
})
