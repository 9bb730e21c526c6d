/**
 * Font preloads on every page: a build step (server/finalize.ts).
 *
 * next/font preloads the files of faces declared with `preload: true` (it names
 * them `<face>-s.p.<hash>.woff2`) in the head of every route, but Next 16 writes
 * no such link on the not-found page (`404.html`). With `font-display: optional`
 * a face that is not there for the first paint is not used for that view, so the
 * 404 page was drawn in the fallback font. This adds, to any page whose inline CSS
 * uses a preloadable file it does not yet preload, the same link Next writes.
 */
import { parse, type DefaultTreeAdapterMap } from 'parse5'

type Element = DefaultTreeAdapterMap['element']

/** A next/font file marked for preloading, as its inline CSS refers to it. */
const PRELOADABLE_FONT = /url\((\/_next\/static\/media\/[\w.-]+\.p\.[\w-]+\.woff2)\)/g

/** The link Next writes for a preloaded next/font file. */
export const fontPreloadLink = (href: string) =>
  `<link rel="preload" href="${href}" as="font" crossorigin="" type="font/woff2"/>`

/**
 * @param html an exported page
 * @returns the page with a preload link, before its first link, style or script in
 *   `<head>`, for each preloadable font file its CSS uses and it does not preload;
 *   unchanged when there is none (or the page has no `<head>`)
 */
export function preloadPageFonts(html: string): string {
  const used = new Set([...html.matchAll(PRELOADABLE_FONT)].map((match) => match[1]!))
  const missing = [...used].filter((href) => !html.includes(`rel="preload" href="${href}"`))
  if (missing.length === 0) return html
  const document = parse(html, { sourceCodeLocationInfo: true })
  const htmlElement = document.childNodes.find((node): node is Element => node.nodeName === 'html')
  const head = htmlElement?.childNodes.find((node): node is Element => node.nodeName === 'head')
  if (!head?.sourceCodeLocation?.startTag) return html
  const before = head.childNodes.find((node): node is Element =>
    ['link', 'style', 'script'].includes(node.nodeName),
  )
  const at = before?.sourceCodeLocation?.startOffset ?? head.sourceCodeLocation.startTag.endOffset
  return `${html.slice(0, at)}${missing.map(fontPreloadLink).join('')}${html.slice(at)}`
}
