/** Font preloads on every page (the 404 page too), only where the connection can use them (docs/speed.md, "The 270 ms rule"). */
import { parse, type DefaultTreeAdapterMap } from 'parse5'
import { scriptSafeJson } from '../lib/text.ts'
import { attributeOf, applyEdits, type HtmlEdit } from '../lib/html-elements.ts'
import { fontPreloadLink, PRELOADABLE_FONT } from './next-export-shape.ts'

type Element = DefaultTreeAdapterMap['element']

/** Effective connection types (Network Information API) whose round trips are 270 ms or longer. */
export const SLOW_CONNECTIONS = ['slow-2g', '2g', '3g'] as const

/** Where the API's `3g` starts, in ms. */
export const SLOW_ROUND_TRIP_MS = 270

/** The inline script (ES5) that preloads the fonts unless this page's request took `SLOW_ROUND_TRIP_MS` or the connection is slow. */
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

export const adaptiveFontPreload = (hrefs: readonly string[]) =>
  `<script>${fontPreloadScript(hrefs)}</script><noscript>${hrefs.map(fontPreloadLink).join('')}</noscript>`

/** Puts `adaptiveFontPreload` of the preloadable fonts a page's CSS uses first in `<head>`, in place of their links. */
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
