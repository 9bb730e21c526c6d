/** An SVG made safe to write into a page as `<svg>` markup, or refused (docs/speed.md): it then stays an `<img>`. */
import { getTools } from './svg-sanitiser.ts'

/** A sanitised drawing: the root's `viewBox` and the markup that goes inside `<svg>`. */
export type InlineSvg = { viewBox: string; markup: string }

// Set by the page's own <svg> (or void inside a page); any other root attribute moves onto a <g>.
const rootOnlyAttributes = new Set(
  'xmlns xmlns:xlink version viewbox width height x y preserveaspectratio id class role focusable'.split(' '),
)

function referencesOutside(element: Element): boolean {
  for (const attribute of Array.from(element.attributes)) {
    const name = attribute.name.toLowerCase()
    const value = attribute.value.trim()
    if ((name === 'href' || name === 'xlink:href') && !value.startsWith('#')) return true
    if (/url\(\s*(?!['"]?#)/i.test(value)) return true
  }
  return false
}

/**
 * SVG source to markup safe inside the page's own `<svg>`, ids and classes prefixed with `idPrefix`;
 * null when it fails a gate. @throws Error when idPrefix is not a valid id start
 */
export async function toInlineSvg(source: string, idPrefix: string): Promise<InlineSvg | null> {
  if (!/^[a-z][a-z0-9-]*$/i.test(idPrefix))
    throw new Error(`toInlineSvg: "${idPrefix}" is not a valid id prefix`)
  // Loaded on first use, as jsdom is: SVGO alone is ~0.4 s of a start.
  const { optimize } = await import('svgo')
  let data: string
  try {
    ;({ data } = optimize(source, {
      multipass: true,
      plugins: [
        'preset-default',
        'removeDimensions',
        'removeTitle',
        { name: 'removeDesc', params: { removeAny: true } },
        'removeScripts',
        'removeXlink',
        { name: 'prefixIds', params: { prefix: idPrefix, delim: '-' } },
      ],
    }))
  } catch {
    return null // not well-formed XML: a browser may still show it in an <img>
  }

  const { purify } = await getTools()
  const fragment = purify.sanitize(data, {
    USE_PROFILES: { svg: true, svgFilters: true },
    // A <use> that points outside the drawing is refused below.
    ADD_TAGS: ['use'],
    RETURN_DOM_FRAGMENT: true,
  })
  // DOMPurify lists the <body> of its own parse as removed; anything else is refused.
  const removed = purify.removed.filter((item) => !('element' in item && item.element.nodeName === 'BODY'))
  if (removed.length > 0) return null

  const root = fragment.firstElementChild
  if (!root || root.localName !== 'svg' || fragment.childElementCount !== 1) return null
  const viewBox = root.getAttribute('viewBox')
  if (!viewBox) return null
  const elements = [root, ...Array.from(root.querySelectorAll('*'))]
  // A link would put a focusable control inside what reads as one image.
  const refused = (element: Element) =>
    ['style', 'a'].includes(element.localName) || referencesOutside(element)
  if (elements.some(refused)) return null

  const inherited = Array.from(root.attributes).filter(
    (attribute) =>
      !rootOnlyAttributes.has(attribute.name.toLowerCase()) && !attribute.name.startsWith('aria-'),
  )
  const markup = root.innerHTML
  if (inherited.length === 0) return { viewBox, markup }
  const group = root.ownerDocument.createElementNS('http://www.w3.org/2000/svg', 'g')
  for (const attribute of inherited) group.setAttribute(attribute.name, attribute.value)
  group.append(...Array.from(root.childNodes))
  return { viewBox, markup: group.outerHTML }
}
