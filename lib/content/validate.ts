/**
 * Content validation at read time. The schema's rules guard the Studio; these
 * guard the build: content that breaks them (a missing field, a broken image
 * reference, four stars) fails the build with the document `_id` and the field,
 * so a bad edit can never ship a half-empty page.
 */

/** Content that breaks a rule; the message names the document and the field. */
export class ContentError extends Error {
  readonly documentId: string
  readonly field: string
  readonly problem: string

  constructor(documentId: string, field: string, problem: string) {
    super(`Invalid content: document "${documentId}", field "${field}": ${problem}`)
    this.name = 'ContentError'
    this.documentId = documentId
    this.field = field
    this.problem = problem
  }
}

/** A check returns a problem in words, or null when the value is fine. */
export type Check = (value: unknown) => string | null

/** Field path (dot-separated, e.g. `image.asset`) to the check it must pass. */
export type Rules = Record<string, Check>

const isBlank = (value: unknown) =>
  value === null || value === undefined || (typeof value === 'string' && value.trim() === '')

/** A non-empty string. */
export const text: Check = (value) =>
  isBlank(value) ? 'is missing' : typeof value === 'string' ? null : 'must be text'

/** A list whose length is one of `lengths`, or between `min` and `max`. */
export const list =
  (options: { min?: number; max?: number; lengths?: number[]; of?: Check }): Check =>
  (value) => {
    if (!Array.isArray(value)) return 'is missing'
    const { min = 1, max = Infinity, lengths, of } = options
    if (lengths && !lengths.includes(value.length))
      return `must have ${lengths.join(' or ')} items, has ${value.length}`
    if (value.length < min || value.length > max)
      return max === Infinity
        ? `must have at least ${min} item(s), has ${value.length}`
        : `must have ${min} to ${max} items, has ${value.length}`
    if (of) {
      for (const [index, item] of value.entries()) {
        const problem = of(item)
        if (problem) return `item ${index + 1} ${problem}`
      }
    }
    return null
  }

/** A number equal to `expected` (spec §9: every review has 5 stars). */
export const exactly =
  (expected: number): Check =>
  (value) =>
    value === expected
      ? null
      : `must be ${expected}, is ${value === undefined ? 'missing' : JSON.stringify(value)}`

/**
 * An absolute https URL. Anything else (`javascript:`, `data:`, `http:`, a
 * protocol-relative `//host`) is refused; the URL parser ignores leading
 * spaces and letter case exactly as browsers do, so ` JavaScript:` is caught.
 */
export const httpsUrl: Check = (value) => {
  if (isBlank(value)) return 'is missing'
  if (typeof value !== 'string') return 'must be an https URL'
  try {
    return new URL(value).protocol === 'https:' ? null : 'must be an https URL'
  } catch {
    return 'must be an https URL'
  }
}

const SITE_ORIGIN = 'https://site.invalid'

/**
 * A path on this site: one "/" and then not a second "/" or "\" (browsers read
 * `//host` and `/\host` as another site), no spaces or control characters,
 * and it resolves to this site's origin.
 */
export const sitePath: Check = (value) => {
  const problem = 'must be a path on this site (starting with a single "/")'
  if (typeof value !== 'string' || !/^\/(?![/\\])[^\s\\]*$/.test(value)) return problem
  if ([...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) return problem
  try {
    return new URL(value, SITE_ORIGIN).origin === SITE_ORIGIN ? null : problem
  } catch {
    return problem
  }
}

/** An https URL or a path on this site (starting with a single "/", see `sitePath`). */
export const httpsUrlOrPath: Check = (value) => {
  if (isBlank(value)) return 'is missing'
  if (typeof value === 'string' && value.startsWith('/'))
    return sitePath(value) && 'must be an https URL or a path on this site (a single "/" then no "/" or "\\")'
  return httpsUrl(value) && 'must be an https URL or a path on this site'
}

/** A link in text: an https URL, a path on this site, or a `mailto:`/`tel:` address. */
export const textLink: Check = (value) => {
  if (typeof value === 'string' && /^(mailto|tel):[^\s]+$/i.test(value)) return null
  if (isBlank(value)) return 'is missing'
  return (
    (typeof value === 'string' && value.startsWith('/') ? sitePath(value) : httpsUrl(value)) &&
    'must be an https URL, a path on this site, or a mailto:/tel: address'
  )
}

/** Every link (`markDefs[].href`) in portable text passes `textLink`. */
export const portableTextLinks: Check = (value) => {
  if (!Array.isArray(value)) return null
  for (const [index, block] of value.entries()) {
    const markDefs: unknown = block?.markDefs
    if (!Array.isArray(markDefs)) continue
    for (const mark of markDefs) {
      if (!mark || typeof mark !== 'object' || !('href' in mark)) continue
      const href = (mark as { href?: unknown }).href
      const problem = textLink(href)
      if (problem) return `block ${index + 1} has a link ${JSON.stringify(href)} that ${problem}`
    }
  }
  return null
}

/** Portable text: at least one block with some text, and only safe links (`portableTextLinks`). */
export const portableText: Check = (value) => {
  if (!Array.isArray(value) || value.length === 0) return 'is missing'
  const badLink = portableTextLinks(value)
  if (badLink) return badLink
  const hasText = value.some(
    (block) =>
      Array.isArray(block?.children) &&
      block.children.some((span: { text?: unknown }) => typeof span?.text === 'string' && span.text.trim()),
  )
  return hasText ? null : 'has no text'
}

/** A fraction of an image's width or height: a number from 0 to 1. */
const isFraction = (value: unknown): boolean => typeof value === 'number' && value >= 0 && value <= 1

/**
 * An image with alt text whose asset reference resolves to an asset with dimensions,
 * and whose hotspot, when the editor set one, lies inside the image (x and y are
 * fractions of its width and height, as the Studio's image tool writes them).
 */
export const image: Check = (value) => {
  if (!value || typeof value !== 'object') return 'is missing'
  const { alt, asset, hotspot } = value as {
    alt?: unknown
    asset?: Record<string, unknown> | null
    hotspot?: { x?: unknown; y?: unknown } | null
  }
  if (!asset) return 'has no asset, or its asset reference is broken'
  const dimensions = (asset.metadata as { dimensions?: { width?: unknown; height?: unknown } } | undefined)
    ?.dimensions
  if (typeof dimensions?.width !== 'number' || typeof dimensions?.height !== 'number')
    return `asset "${String(asset._id)}" has no dimensions`
  if (isBlank(alt)) return 'has no alternative text (alt)'
  if (hotspot && !(isFraction(hotspot.x) && isFraction(hotspot.y)))
    return 'has a hotspot outside the image (x and y must be from 0 to 1)'
  return null
}

function valueAt(doc: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (value, key) =>
        value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined,
      doc,
    )
}

/**
 * Checks one document against its rules.
 * @param doc a query result with `_id`
 * @param rules field path -> check
 * @returns the document, unchanged, typed as given
 * @throws ContentError naming `doc._id` and the first failing field
 */
export function validateDocument<T extends { _id: string }>(doc: T, rules: Rules): T {
  for (const [field, check] of Object.entries(rules)) {
    const problem = check(valueAt(doc, field))
    if (problem) throw new ContentError(doc._id, field, problem)
  }
  return doc
}

/**
 * Checks that a query found what a page cannot do without.
 * @param what e.g. 'case studies' or 'the siteSettings document'
 * @throws Error when `value` is null or an empty list
 */
export function requireFound<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined || (Array.isArray(value) && value.length === 0))
    throw new Error(`Content missing: the dataset has no ${what}; the site cannot be built without it`)
  return value
}
