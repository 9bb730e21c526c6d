/**
 * An SVG file made safe to write into a page as `<svg>` markup. An image inside the
 * HTML paints with the first paint and needs no request at all (a `data:` URL also
 * needs none, but Lighthouse's simulator counts it as one in flight and slows the
 * page's font with it; see docs/speed.md).
 *
 * Markup inside the page is trusted by the browser as the page's own, so an editor's
 * upload goes through three gates before it is inlined:
 * 1. SVGO parses it as XML (or refuses it), minifies it, removes scripts, `<title>` and
 *    `<desc>` (the alt text names the image) and width/height, and prefixes every id
 *    and class with one of the asset's own, so that two drawings, or a drawing and the
 *    page, cannot capture each other's `url(#id)` references or styles;
 * 2. DOMPurify, with its SVG and SVG-filter profiles (plus `<use>`), must find nothing
 *    to remove;
 * 3. it must have a viewBox, no `<style>` element (its selectors would style the whole
 *    page), no link (a control inside an image) and no reference outside itself
 *    (`href` or `url()` not starting with `#`).
 * A file that fails a gate is not inlined; it stays an `<img>`, where a browser runs no
 * script and fetches nothing from inside it.
 */
import type { DOMPurify } from 'dompurify'

/** A sanitised drawing: the root's `viewBox` and the markup that goes inside `<svg>`. */
export type InlineSvg = { viewBox: string; markup: string }

// The root attributes the page's own <svg> element sets (or that do not apply inside
// a page); any other one (fill, font-family, ...) is inherited by the drawing, so it
// moves onto a <g> around the children.
const rootOnlyAttributes = new Set([
  'xmlns',
  'xmlns:xlink',
  'version',
  'viewbox',
  'width',
  'height',
  'x',
  'y',
  'preserveaspectratio',
  'id',
  'class',
  'role',
  'focusable',
])

let purifier: Promise<DOMPurify> | undefined

/**
 * One DOMPurify over one jsdom window, made on first use: jsdom is loaded only by a
 * build that inlines an image, not by every module that imports the content layer.
 */
function getPurifier(): Promise<DOMPurify> {
  purifier ??= Promise.all([import('dompurify'), import('jsdom')]).then(([dompurify, jsdom]) =>
    dompurify.default(new jsdom.JSDOM('').window as unknown as Window & typeof globalThis),
  )
  return purifier
}

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
 * SVG source to markup that is safe to put inside the page's own `<svg>` element.
 * @param source the file's text
 * @param idPrefix a prefix unique to the file (e.g. from its hash), letters, digits and
 *   hyphens, starting with a letter
 * @returns the viewBox and inner markup, or null when the file fails a gate (see above)
 * @throws Error when idPrefix is not a valid id start
 */
export async function toInlineSvg(source: string, idPrefix: string): Promise<InlineSvg | null> {
  if (!/^[a-z][a-z0-9-]*$/i.test(idPrefix))
    throw new Error(`toInlineSvg: "${idPrefix}" is not a valid id prefix`)
  // Loaded on first use, as jsdom is (getPurifier): SVGO alone is ~0.4 s of a start.
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

  const purify = await getPurifier()
  const fragment = purify.sanitize(data, {
    USE_PROFILES: { svg: true, svgFilters: true },
    // DOMPurify drops <use> because it can pull in another file's markup; one that
    // points inside the drawing (`#id`) is safe, and gate 3 rejects any other.
    ADD_TAGS: ['use'],
    RETURN_DOM_FRAGMENT: true,
  })
  // DOMPurify lists the <body> of its own parse as removed; anything else means the
  // file had something it will not allow (script, handler, foreignObject, ...).
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
