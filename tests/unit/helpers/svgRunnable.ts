/** Test helper: what in an SVG file a browser would run or fetch, opening it as a document. */
import { JSDOM } from 'jsdom'

/**
 * Everything in a drawing that a browser would run or fetch when it opens it as a document:
 * scripts, handlers, HTML, animation that sets attributes, XSLT, non-fragment references,
 * `javascript:` anywhere. Empty: inert.
 */
export function runnable(text: string): string[] {
  const { window } = new JSDOM('')
  const document = new window.DOMParser().parseFromString(text, 'image/svg+xml')
  const found: string[] = []
  if (document.documentElement.localName === 'parsererror') return ['not XML']
  for (const node of Array.from(document.childNodes))
    if (node.nodeType !== node.ELEMENT_NODE && node.nodeType !== node.COMMENT_NODE)
      found.push(`a ${node.nodeName} beside the root`)
  const instructions = document.createTreeWalker(document, window.NodeFilter.SHOW_PROCESSING_INSTRUCTION)
  while (instructions.nextNode()) found.push(`<?${instructions.currentNode.nodeName}?>`)
  const elements = [document.documentElement, ...Array.from(document.querySelectorAll('*'))]
  for (const element of elements) {
    if (element.namespaceURI !== 'http://www.w3.org/2000/svg') found.push(`<${element.nodeName}> not SVG`)
    if (['script', 'foreignObject', 'set', 'animate', 'iframe', 'handler'].includes(element.localName))
      found.push(`<${element.localName}>`)
    for (const { name, value } of Array.from(element.attributes)) {
      if (/^on/i.test(name)) found.push(`${name}=`)
      // A browser reads `java\tscript:` as `javascript:`.
      if (/javascript:/i.test(value.replace(/[\s\0-\x1f]/g, ''))) found.push(`${name}=javascript:`)
      const embedded = element.localName === 'image' && value.startsWith('data:image/png;')
      if (/href$/i.test(name) && element.localName !== 'a' && !value.startsWith('#') && !embedded)
        found.push(`${name}=${value} on <${element.localName}>`)
      // A CSS escape (`u\72l(`) spells url( too.
      if (/url\(\s*['"]?(?!#)|\\/i.test(value)) found.push(`${name}=${value}`)
    }
    if (element.localName === 'style' && /@import|url\(\s*['"]?(?!#)/i.test(element.textContent ?? ''))
      found.push('<style> loading a file')
  }
  return found
}
