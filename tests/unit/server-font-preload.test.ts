/**
 * @jest-environment node
 */
import { fontPreloadLink, preloadPageFonts } from '../../server/font-preload'

const core = '/_next/static/media/plus_jakarta_sans_core-s.p.05qln-vqg_dv5.woff2'
const extended = '/_next/static/media/plus_jakarta_sans_extended.0vi0ioj0ffkw6.woff2'
const css = `@font-face{font-family:jakarta;src:url(${core}) format("woff2")}@font-face{font-family:jakartaExtended;src:url(${extended}) format("woff2")}`
const page = (head: string) =>
  `<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><meta name="viewport" content="width=device-width"/>${head}<style>${css}</style></head><body><h1>404</h1></body></html>`

test('a page whose CSS uses the preloadable face but does not preload it (the 404 page) gets the link, before its styles', () => {
  const html = preloadPageFonts(page(''))
  expect(html).toBe(page(fontPreloadLink(core)))
  expect(html.indexOf(fontPreloadLink(core))).toBeLessThan(html.indexOf('<style>'))
})

test('a page that already preloads it is unchanged; a face not marked for preloading is never added', () => {
  const preloaded = page(fontPreloadLink(core))
  expect(preloadPageFonts(preloaded)).toBe(preloaded)
  expect(preloadPageFonts(preloaded)).not.toContain(`href="${extended}"`)
})

test('a page without next/font CSS is unchanged', () => {
  const plain = '<!DOCTYPE html><html><head><title>x</title></head><body></body></html>'
  expect(preloadPageFonts(plain)).toBe(plain)
})
