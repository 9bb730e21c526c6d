/** Starts Next's scripts, and fetches the page's RSC payload from its file, after the first contentful paint (docs/speed.md). */
import { scriptSafeJson } from '../lib/text.ts'
import { attributeOf, elementsOf, textOf, applyEdits, type HtmlEdit } from '../lib/html-elements.ts'
import { isFrameworkChunkScript, isFrameworkScriptPreload, payloadChunkText } from './next-export-shape.ts'

/** The loader's latest start, in ms after it runs (if no paint is ever reported). */
export const LOADER_FALLBACK_MS = 3000

/**
 * The inline loader (ES5): adds the scripts in order after the first paint, at the latest after
 * `LOADER_FALLBACK_MS`, fetching and pushing `payload` first when the inline copy was cut.
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

// Anchored at the loader's own start: other inline scripts end in `})(document,[…])` too.
const LOADER_ARGUMENTS =
  /<script>\(function\(d,s(?:,p)?\)\{var done=0;[\s\S]*?\}\)\(document,(\[[^\]]*\])(?:,("[^"]*"|null))?\)<\/script>/

/** The script URLs a rewritten page's loader starts, in order (for byte counts). */
export function deferredScriptsOf(html: string): string[] {
  const list = LOADER_ARGUMENTS.exec(html)?.[1]
  return list ? (JSON.parse(list) as string[]) : []
}

/** The RSC payload URL a rewritten page's loader fetches, e.g. '/index.txt'; null when it stayed inline. */
export function deferredPayloadOf(html: string): string | null {
  const payload = LOADER_ARGUMENTS.exec(html)?.[2]
  return payload ? (JSON.parse(payload) as string | null) : null
}

/**
 * Rewrites one exported page: cuts Next's chunk scripts, their preloads and (when `payload.text`
 * is exactly its bytes) the inline payload, and appends the loader before `</body>`.
 * @throws Error when a page with framework scripts has no `</body>`
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
