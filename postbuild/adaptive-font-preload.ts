/**
 * Font preloads on every page, where the connection can use them: a postbuild step
 * (postbuild/index.ts).
 *
 * next/font preloads the files of faces declared with `preload: true` (it names
 * them `<face>-s.p.<hash>.woff2`) with a `<link rel="preload">` in the head of every
 * route, but Next 16 writes no such link on the not-found page (`404.html`). With
 * `font-display: optional` a face that is not there for the first paint is not used
 * for that view, so the 404 page was drawn in the fallback font.
 *
 * Chromium holds the first paint for a font preloaded in `<head>` until it arrives
 * or up to about 100 ms after `<body>` starts (`RenderBlockingResourceManager`:
 * render-blocking font preloads, so that an optional font can be used from the
 * first paint). On a connection whose round trip is longer than that the font can
 * never arrive in time: the hold only delays the first paint, and the view keeps
 * the fallback anyway (Lighthouse's applied phone throttling, 562 ms round trips:
 * the 404 page's first paint 1006 ms with the preload, 906 ms without, median of 5).
 * So the build replaces the link with a tiny inline script, first in `<head>`, that
 * adds the same link unless the connection's round trip is 270 ms or more: this
 * page's own request was sent that long before the script runs, which is one round
 * trip and the server's time (Navigation Timing's `requestStart`, in every browser),
 * or the Network Information API rates the connection `slow-2g`, `2g` or `3g`
 * (Chromium). The page's own timing is the measurement that holds: Chromium 150
 * under DevTools' network emulation (what Lighthouse's applied throttling uses)
 * reports `4g` again after a navigation, and puts the emulated 562 ms between the
 * response's headers and its body (so `responseStart` does not show it), while the
 * script still runs 562 ms after the request. Without JavaScript a `<noscript>`
 * keeps the plain link. Either way the CSS fetches the font for the next page's
 * first paint.
 */
import { parse, type DefaultTreeAdapterMap } from 'parse5'
import { scriptSafeJson } from '../lib/text.ts'
import { attributeOf } from '../lib/html-elements.ts'
import { applyEdits, type HtmlEdit } from './html-edits.ts'
import { fontPreloadLink, PRELOADABLE_FONT } from './next-export-shape.ts'

type Element = DefaultTreeAdapterMap['element']

/**
 * Effective connection types (Network Information API) whose round trips are 270 ms
 * or longer, too long for a render-blocking preload to arrive before the first paint.
 */
export const SLOW_CONNECTIONS = ['slow-2g', '2g', '3g'] as const

/** The round trip, in ms, from which a connection is slow: where the API's `3g` starts. */
export const SLOW_ROUND_TRIP_MS = 270

/**
 * The inline script that preloads font files unless the connection is slow (ES5):
 * this page's request was sent `SLOW_ROUND_TRIP_MS` or more before the script runs,
 * or `navigator.connection` says one of `SLOW_CONNECTIONS`.
 * @param hrefs the font files' URLs
 */
export function fontPreloadScript(hrefs: readonly string[]): string {
  return (
    '(function(d,f){var c=navigator.connection,p=typeof performance!="undefined"&&performance,' +
    'n=p&&p.getEntriesByType&&p.getEntriesByType("navigation")[0];' +
    `if(n&&n.requestStart&&p.now()-n.requestStart>=${SLOW_ROUND_TRIP_MS})return;` +
    `if(c&&${scriptSafeJson(SLOW_CONNECTIONS)}.indexOf(c.effectiveType)>=0)return;` +
    'for(var i=0;i<f.length;i++){var l=d.createElement("link");l.rel="preload";' +
    'l.setAttribute("as","font");l.setAttribute("crossorigin","");l.type="font/woff2";l.href=f[i];d.head.appendChild(l)}' +
    `})(document,${scriptSafeJson(hrefs)})`
  )
}

/** What replaces a page's font preload links: the script, and the links for a browser without JavaScript. */
export const adaptiveFontPreload = (hrefs: readonly string[]) =>
  `<script>${fontPreloadScript(hrefs)}</script><noscript>${hrefs.map(fontPreloadLink).join('')}</noscript>`

/**
 * @param html an exported page
 * @returns the page with its links to preloadable font files its CSS uses removed
 *   and `adaptiveFontPreload` for all of them (the 404 page's missing one included)
 *   put before the first link, style or script in `<head>`; unchanged when its CSS
 *   uses none, when it has them already, or when it has no `<head>`
 */
export function preloadPageFonts(html: string): string {
  const used = [...new Set([...html.matchAll(PRELOADABLE_FONT)].map((match) => match[1]!))]
  if (used.length === 0 || html.includes(adaptiveFontPreload(used))) return html
  const document = parse(html, { sourceCodeLocationInfo: true })
  const htmlElement = document.childNodes.find((node): node is Element => node.nodeName === 'html')
  const head = htmlElement?.childNodes.find((node): node is Element => node.nodeName === 'head')
  if (!head?.sourceCodeLocation?.startTag) return html
  const elements = head.childNodes.filter((node): node is Element => 'tagName' in node)
  const cuts: HtmlEdit[] = elements
    .filter(
      (element) =>
        element.tagName === 'link' &&
        attributeOf(element, 'rel') === 'preload' &&
        attributeOf(element, 'as') === 'font' &&
        used.includes(attributeOf(element, 'href') ?? ''),
    )
    .map(({ sourceCodeLocation }) => ({
      start: sourceCodeLocation!.startOffset,
      end: sourceCodeLocation!.endOffset,
    }))
  const before = elements.find((element) => ['link', 'style', 'script'].includes(element.tagName))
  const at = before?.sourceCodeLocation?.startOffset ?? head.sourceCodeLocation.startTag.endOffset
  return applyEdits(html, [{ start: at, end: at, text: adaptiveFontPreload(used) }, ...cuts])
}
