/**
 * Paint first, then run the framework: a postbuild step (postbuild/index.ts) that moves
 * the start of Next.js's own scripts to after a page's first contentful paint.
 *
 * Why (docs/speed.md): Next's export puts every chunk of the
 * runtime in `<head>` as `<script async>` plus `<link rel="preload" as="script">`.
 * Fetched and run before the first paint, those ~190 KiB of JavaScript are charged
 * to the largest contentful paint by Lighthouse's simulated throttling (what
 * PageSpeed Insights shows), which counts every request that finished before the
 * observed paint: the home page read 2.1-2.4 s against an empty page's 0.7 s. The
 * page is complete HTML and paints without them; they only hydrate it.
 *
 * Each page keeps its other inline scripts (boot script, Turbopack's chunk list)
 * and gets one small inline loader at the end of `<body>` that appends the
 * same chunks, in the same order, as async scripts once the browser reports the
 * first contentful paint (PerformanceObserver 'paint'). Where that is unsupported
 * it waits one frame; in a background tab (no paint) it starts at once; in every
 * case it starts at the latest after 3 s. The loader is an inline script, so the
 * page's Content-Security-Policy hash covers it (headers are computed afterwards).
 *
 * The RSC payload goes too, when the export holds it as a file: Next writes each
 * page's payload twice, inline (`self.__next_f.push([1,"…"])` scripts, which
 * hydration reads) and as `<page>.txt` (which client navigations fetch), byte for
 * byte the same. Inline it is a third of the home page's compressed HTML and pushed
 * it past one TCP initial window (18.3 against 14.6 KB). So when the two are equal
 * the inline copy is cut, and at first paint the loader preloads the chunks, fetches
 * the `.txt`, pushes it into `self.__next_f` as Next's inline scripts did, and only
 * then adds the chunks, so Next's runtime finds it as before. If the fetch fails
 * the page stays the complete, usable HTML it is without JavaScript.
 */
import { scriptSafeJson } from '../lib/text.ts'
import { attributeOf, elementsOf, textOf } from '../lib/html-elements.ts'
import { applyEdits, type HtmlEdit } from './html-edits.ts'
import { isFrameworkChunkScript, isFrameworkScriptPreload, payloadChunkText } from './next-export-shape.ts'

/** The loader's latest start, in ms after it runs (if no paint is ever reported). */
export const LOADER_FALLBACK_MS = 3000

/**
 * The inline loader for a list of script URLs (ES5, no dependencies).
 * @param sources script URLs in document order
 * @param payload the URL of the page's RSC payload file to fetch and push first, if its inline copy was cut
 */
export function loaderScript(sources: readonly string[], payload?: string): string {
  const list = scriptSafeJson(sources)
  const run =
    'function run(){for(var i=0;i<s.length;i++){var e=d.createElement("script");e.src=s[i];e.async=true;d.body.appendChild(e)}}'
  // With a payload: preload the chunks now, add them once the payload is in self.__next_f.
  const start = payload
    ? 'if(!window.fetch)return;' +
      'for(var i=0;i<s.length;i++){var l=d.createElement("link");l.rel="preload";l.setAttribute("as","script");l.href=s[i];d.head.appendChild(l)}' +
      'fetch(p,{credentials:"same-origin"}).then(function(r){if(!r.ok)throw Error(r.status);return r.text()})' +
      '.then(function(t){(self.__next_f=self.__next_f||[]).push([1,t]);run()},function(){})'
    : 'run()'
  return (
    `(function(d,s,p){var done=0;${run}function go(){if(done)return;done=1;${start}}` +
    'if(d.visibilityState==="hidden")return go();' +
    'var P=window.PerformanceObserver;' +
    'if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0){' +
    'new P(function(l){l.getEntries().forEach(function(x){if(x.name==="first-contentful-paint")setTimeout(go,0)})}).observe({type:"paint",buffered:true})' +
    '}else requestAnimationFrame(function(){setTimeout(go,0)});' +
    `setTimeout(go,${LOADER_FALLBACK_MS})` +
    `})(document,${list},${scriptSafeJson(payload ?? null)})`
  )
}

/**
 * The loader's arguments in a rewritten page: its script list and payload URL (or null).
 * Anchored at the loader's own start: other inline scripts end in `})(document,[…])` too
 * (adaptive-font-preload.ts).
 */
const LOADER_ARGUMENTS =
  /<script>\(function\(d,s(?:,p)?\)\{var done=0;[\s\S]*?\}\)\(document,(\[[^\]]*\])(?:,("[^"]*"|null))?\)<\/script>/

/**
 * The scripts a rewritten page's loader starts (for byte counts: they are no `<script src>`).
 * @param html a page after `deferFrameworkScripts`
 * @returns the loader's script URLs in order; none for a page without the loader
 */
export function deferredScriptsOf(html: string): string[] {
  const list = LOADER_ARGUMENTS.exec(html)?.[1]
  return list ? (JSON.parse(list) as string[]) : []
}

/**
 * The RSC payload file a rewritten page's loader fetches (for byte counts).
 * @param html a page after `deferFrameworkScripts`
 * @returns its URL, e.g. '/index.txt'; null when the payload stayed inline
 */
export function deferredPayloadOf(html: string): string | null {
  const payload = LOADER_ARGUMENTS.exec(html)?.[2]
  return payload ? (JSON.parse(payload) as string | null) : null
}

/**
 * Rewrites one exported page so Next's chunks start after its first paint (see the module comment).
 * Removes each `<script src="/_next/static/…" async>` and each
 * `<link rel="preload" as="script" href="/_next/static/…">`, and appends the loader
 * for those scripts just before `</body>`. Given the page's payload file and its
 * text, it also cuts the inline payload chunks when they are exactly that text.
 * @param html a complete HTML document from Next's static export
 * @param payload the page's RSC payload file: `url` (e.g. '/index.txt') and its `text`
 * @returns the rewritten document; the same string when it has no such script
 * @throws Error when a page with framework scripts has no `</body>` (not an export page)
 */
export function deferFrameworkScripts(html: string, payload?: { url: string; text: string }): string {
  const cuts: HtmlEdit[] = []
  const sources: string[] = []
  const chunks: (HtmlEdit & { text: string })[] = []
  for (const element of elementsOf(html)) {
    const location = element.sourceCodeLocation
    if (!location) continue
    const at = { start: location.startOffset, end: location.endOffset }
    if (isFrameworkChunkScript(element)) {
      sources.push(attributeOf(element, 'src')!)
      cuts.push(at)
    } else if (isFrameworkScriptPreload(element)) cuts.push(at)
    else if (element.tagName === 'script' && attributeOf(element, 'src') === undefined) {
      const text = payloadChunkText(textOf(element))
      if (text !== undefined) chunks.push({ ...at, text })
    }
  }
  if (sources.length === 0) return html

  // The inline payload goes only when the file holds exactly the same bytes.
  const cutPayload =
    payload !== undefined && chunks.length > 0 && chunks.map((chunk) => chunk.text).join('') === payload.text
  if (cutPayload) cuts.push(...chunks.map(({ start, end }) => ({ start, end })))

  const out = applyEdits(html, cuts)
  const bodyEnd = out.lastIndexOf('</body>')
  if (bodyEnd < 0) throw new Error('deferFrameworkScripts: the page has no </body>')
  const loader = loaderScript(sources, cutPayload ? payload.url : undefined)
  return `${out.slice(0, bodyEnd)}<script>${loader}</script>${out.slice(bodyEnd)}`
}
