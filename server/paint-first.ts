/**
 * Paint first, then run the framework: a build step (server/finalize.ts) that moves
 * the start of Next.js's own scripts to after a page's first contentful paint.
 *
 * Why (issue 9, TOOLCHAIN "Lighthouse"): Next's export puts every chunk of the
 * runtime in `<head>` as `<script async>` plus `<link rel="preload" as="script">`.
 * Fetched and run before the first paint, those ~190 KiB of JavaScript are charged
 * to the largest contentful paint by Lighthouse's simulated throttling (what
 * PageSpeed Insights shows), which counts every request that finished before the
 * observed paint: the home page read 2.1-2.4 s against an empty page's 0.7 s. The
 * page is complete HTML and paints without them; they only hydrate it.
 *
 * Each page keeps its inline scripts (boot script, RSC payload, Turbopack's chunk
 * list) and gets one small inline loader at the end of `<body>` that appends the
 * same chunks, in the same order, as async scripts once the browser reports the
 * first contentful paint (PerformanceObserver 'paint'). Where that is unsupported
 * it waits one frame; in a background tab (no paint) it starts at once; in every
 * case it starts at the latest after 3 s. The loader is an inline script, so the
 * page's Content-Security-Policy hash covers it (headers are computed afterwards).
 */
import { parse, type DefaultTreeAdapterMap } from 'parse5'
import { scriptSafeJson } from '../lib/text.ts'

type Node = DefaultTreeAdapterMap['node']
type Element = DefaultTreeAdapterMap['element']

/** Next's own files: only these are moved (never a third-party or legacy `nomodule` script). */
const FRAMEWORK_PREFIX = '/_next/static/'
/** The loader's latest start, in ms after it runs (if no paint is ever reported). */
export const LOADER_FALLBACK_MS = 3000

/**
 * The inline loader for a list of script URLs (ES5, no dependencies).
 * @param sources script URLs in document order
 */
export function loaderScript(sources: readonly string[]): string {
  const list = scriptSafeJson(sources)
  return (
    '(function(d,s){var done=0;function go(){if(done)return;done=1;' +
    'for(var i=0;i<s.length;i++){var e=d.createElement("script");e.src=s[i];e.async=true;d.body.appendChild(e)}}' +
    'if(d.visibilityState==="hidden")return go();' +
    'var P=window.PerformanceObserver;' +
    'if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0){' +
    'new P(function(l){l.getEntries().forEach(function(x){if(x.name==="first-contentful-paint")setTimeout(go,0)})}).observe({type:"paint",buffered:true})' +
    '}else requestAnimationFrame(function(){setTimeout(go,0)});' +
    `setTimeout(go,${LOADER_FALLBACK_MS})` +
    `})(document,${list})`
  )
}

/**
 * The scripts a rewritten page's loader starts (for byte counts: they are no `<script src>`).
 * @param html a page after `deferFrameworkScripts`
 * @returns the loader's script URLs in order; none for a page without the loader
 */
export function deferredScriptsOf(html: string): string[] {
  const list = /\}\)\(document,(\[[^\]]*\])\)<\/script>/.exec(html)?.[1]
  return list ? (JSON.parse(list) as string[]) : []
}

const attr = (element: Element, name: string) => element.attrs.find((a) => a.name === name)?.value

/**
 * Rewrites one exported page so Next's chunks start after its first paint (see the module comment).
 * Removes each `<script src="/_next/static/…" async>` and each
 * `<link rel="preload" as="script" href="/_next/static/…">`, and appends the loader
 * for those scripts just before `</body>`.
 * @param html a complete HTML document from Next's static export
 * @returns the rewritten document; the same string when it has no such script
 * @throws Error when a page with framework scripts has no `</body>` (not an export page)
 */
export function deferFrameworkScripts(html: string): string {
  const cuts: { start: number; end: number }[] = []
  const sources: string[] = []
  const visit = (node: Node) => {
    if ('tagName' in node) {
      const element = node as Element
      const location = element.sourceCodeLocation
      if (element.tagName === 'script' && location) {
        const src = attr(element, 'src')
        if (src?.startsWith(FRAMEWORK_PREFIX) && attr(element, 'async') !== undefined) {
          sources.push(src)
          cuts.push({ start: location.startOffset, end: location.endOffset })
        }
      } else if (element.tagName === 'link' && location) {
        const isScriptPreload = attr(element, 'rel') === 'preload' && attr(element, 'as') === 'script'
        if (isScriptPreload && attr(element, 'href')?.startsWith(FRAMEWORK_PREFIX))
          cuts.push({ start: location.startOffset, end: location.endOffset })
      }
    }
    const children = 'content' in node ? node.content.childNodes : 'childNodes' in node ? node.childNodes : []
    for (const child of children) visit(child)
  }
  visit(parse(html, { sourceCodeLocationInfo: true }))
  if (sources.length === 0) return html

  let out = ''
  let from = 0
  for (const cut of cuts.sort((a, b) => a.start - b.start)) {
    out += html.slice(from, cut.start)
    from = cut.end
  }
  out += html.slice(from)
  const bodyEnd = out.lastIndexOf('</body>')
  if (bodyEnd < 0) throw new Error('deferFrameworkScripts: the page has no </body>')
  return `${out.slice(0, bodyEnd)}<script>${loaderScript(sources)}</script>${out.slice(bodyEnd)}`
}
