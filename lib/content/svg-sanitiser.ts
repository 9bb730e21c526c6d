/** Makes an uploaded SVG inert before the site serves it from its own origin (docs/content.md, SECURITY.md). */
import type { Config, DOMPurify } from 'dompurify'
import { SaxesParser } from 'saxes'

/** The most an SVG may hold: bytes, elements and nesting (jsdom's DOM costs about 10 kB an element, recursion a level). */
export const SVG_LIMITS = { bytes: 2 * 1024 * 1024, elements: 10_000, depth: 200 } as const

/** The cleaning's revision, for its cache's name: raise it when the output changes (its test says so). */
export const SVG_SANITISER_REVISION = 1

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg'

/** DOMPurify's SVG profiles, `<use>` (whose `href` is checked first) and comments (inert in XML). */
const PURIFY_CONFIG: Config = {
  USE_PROFILES: { svg: true, svgFilters: true },
  ADD_TAGS: ['use', '#comment'],
  IN_PLACE: true,
}

let tools: Promise<{ purify: DOMPurify; window: Window & typeof globalThis }> | undefined

/** One DOMPurify over one jsdom window, loaded on first use (the inline drawings share it). */
export function getTools() {
  tools ??= Promise.all([import('dompurify'), import('jsdom')]).then(([dompurify, jsdom]) => {
    const window = new jsdom.JSDOM('').window as unknown as Window & typeof globalThis
    return { purify: dompurify.default(window), window }
  })
  return tools
}

/** The cleaning's version, for a cache's name, without loading jsdom. */
export async function sanitiserVersion(): Promise<string> {
  const { default: purify } = await import('dompurify')
  return `r${SVG_SANITISER_REVISION}-dompurify${purify.version}`
}

/** CSS that loads a file (`url(...)` not to `#id`, `@import`, an escape), which a drawing may not hold. */
const EXTERNAL_CSS = /url\s*\(\s*(?!['"]?\s*#)|@import|image-set\s*\(|\\/i

const EMBEDDED_PICTURE = /^data:image\/(?:png|jpeg|gif|webp|avif);/i

/** Whether an attribute points outside the drawing: an `href` other than `#id`, an `<image>`'s embedded picture or an `<a>`'s link; CSS that loads. */
function isExternalReference(element: Element, name: string, value: string): boolean {
  if (name === 'href' || name.endsWith(':href')) {
    const target = value.trim()
    if (element.localName === 'a' || target.startsWith('#')) return false
    return !(element.localName === 'image' && EMBEDDED_PICTURE.test(target))
  }
  return EXTERNAL_CSS.test(value)
}

/** Takes out what DOMPurify does not judge (nodes beside the root, outside references); true when it did. */
function removeOutsideReferences(document: Document): boolean {
  let changed = false
  for (const node of Array.from(document.childNodes))
    if (node !== document.documentElement && node.nodeType !== node.COMMENT_NODE) {
      node.remove()
      changed = true
    }
  const root = document.documentElement
  const walker = document.createTreeWalker(root, 0x8) // CDATA sections (NodeFilter.SHOW_CDATA_SECTION)
  const sections: CDATASection[] = []
  while (walker.nextNode()) sections.push(walker.currentNode as CDATASection)
  for (const section of sections) section.replaceWith(document.createTextNode(section.data))
  for (const element of [root, ...Array.from(root.querySelectorAll('*'))]) {
    for (const attribute of Array.from(element.attributes))
      if (isExternalReference(element, attribute.name.toLowerCase(), attribute.value)) {
        element.removeAttributeNode(attribute)
        changed = true
      }
    if (element.localName === 'style' && EXTERNAL_CSS.test(element.textContent ?? '')) {
      element.textContent = ''
      changed = true
    }
  }
  return changed
}

/** The encoding an XML declaration names, if any: a browser decodes by it, this module by UTF-8. */
function declaredEncoding(text: string): string | undefined {
  const declaration = /^\uFEFF?<\?xml\s[^?]*\?>/.exec(text)?.[0]
  return declaration && /\sencoding\s*=\s*["']([^"']*)["']/.exec(declaration)?.[1]
}

/** Checks with saxes, before jsdom: within SVG_LIMITS, well-formed, no entity declared (a browser expands it as markup). */
function checkShape(text: string, refuse: (problem: string) => Error): void {
  const parser = new SaxesParser({ xmlns: true })
  let elements = 0
  let depth = 0
  parser.on('error', (error) => {
    throw refuse(`is not well-formed XML (${error.message})`)
  })
  parser.on('doctype', (doctype) => {
    if (/<!ENTITY/i.test(doctype)) throw refuse('declares entities in its DOCTYPE (<!ENTITY>)')
  })
  parser.on('opentag', () => {
    if (++elements > SVG_LIMITS.elements)
      throw refuse(`has more than ${SVG_LIMITS.elements} elements, the most the build takes`)
    if (++depth > SVG_LIMITS.depth)
      throw refuse(`nests elements more than ${SVG_LIMITS.depth} deep, the most the build takes`)
  })
  parser.on('closetag', () => void depth--)
  parser.write(text).close()
}

/**
 * An uploaded SVG cleaned by DOMPurify: `bytes` itself when there was nothing to clean, else UTF-8 XML.
 * @throws Error naming `assetId` when the file is too big, not UTF-8, not well-formed, declares
 *   entities, or its root is not an SVG `<svg>`
 */
export async function sanitiseSvg(bytes: Buffer, assetId: string): Promise<Buffer> {
  const refuse = (problem: string) => new Error(`Invalid content: document "${assetId}": the SVG ${problem}`)
  if (bytes.length > SVG_LIMITS.bytes)
    throw refuse(`is ${bytes.length} bytes, more than the ${SVG_LIMITS.bytes} the build takes`)
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw refuse('is not UTF-8 text')
  }
  checkShape(text, refuse)
  const { purify, window } = await getTools()
  const document = new window.DOMParser().parseFromString(text, 'image/svg+xml')
  const root = document.documentElement
  if (root.localName === 'parsererror') throw refuse(`is not well-formed XML (${root.textContent?.trim()})`)
  if (root.localName !== 'svg' || root.namespaceURI !== SVG_NAMESPACE)
    throw refuse(`has <${root.nodeName}> as its root element, not an SVG's <svg>`)
  const encoding = declaredEncoding(text)
  let changed = encoding !== undefined && encoding.toLowerCase() !== 'utf-8'
  changed = removeOutsideReferences(document) || changed
  try {
    purify.sanitize(root, PURIFY_CONFIG)
  } catch (error) {
    throw refuse(`cannot be cleaned (${(error as Error).message})`)
  }
  if (purify.removed.length === 0 && !changed) return bytes
  return Buffer.from(`${new window.XMLSerializer().serializeToString(root)}\n`, 'utf8')
}
