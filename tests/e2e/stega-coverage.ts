/**
 * How much of an editor's preview is click-to-edit: of the strings a page shows that an
 * editor can change, the share whose text carries an edit link (stega, or a `data-sanity`
 * attribute on an element that shows a computed string) to the right document and field.
 * The preview's e2e test holds it at 100% on every route, exceptions named
 * (`STEGA_EXCEPTIONS`).
 *
 * The dataset says what an editor can change: every string of every document the preview's
 * perspective shows (assets and Sanity's system documents left out), and what the site
 * computes from one (`derivedStrings`). A text on the page that is none of them is the
 * site's own (a fixed label) and is not counted. A link to a field whose value is not the
 * text it sits on is wrong, and fails the check, whatever the share.
 */
import { studioPath } from '@sanity/client/csm'
import { stegaClean } from '@sanity/client/stega'
import { decodeSanityNodeData } from '@sanity/visual-editing-csm'
import { vercelStegaDecode, vercelStegaSplit } from '@vercel/stega'
import { evaluateSync, parse, toJS } from 'groq-js'
import { excerpt, siteHost } from '../../lib/text'
import { NOT_FOUND_ROUTE } from '../../scripts/audit/routes'

/** One text of a page as the browser has it: a text node's, or an image's alt text. */
export type PageText = {
  /** As rendered, stega included. */
  text: string
  /** The `data-sanity` attribute of the nearest element that has one, if any. */
  sanity: string | null
  /** Where it is, for messages: the element's tag, or `img[alt]`. */
  where: string
  /**
   * Whether a pointer over the text's element reaches it (the overlays follow the pointer):
   * false when something else covers its middle, such as a card's stretched link; null
   * when the element is not shown (a closed disclosure, a closed menu).
   */
  reachable: boolean | null
}

/** A document and a field in it, as an edit link names them (`path` in Studio notation). */
export type FieldRef = { id: string; path: string }

/** A text an editor can change that has no edit link, and why it is allowed not to. */
export type StegaException = { text: RegExp | string; reason: string }

/**
 * Editor-owned texts the preview shows without an edit link, each with its reason (also in
 * docs/publishing.md, "Click-to-edit"). Empty is the goal.
 */
export const STEGA_EXCEPTIONS: StegaException[] = []

/** What `coverageOf` found on one page. */
export type Coverage = {
  /** Editor-owned texts the page shows. */
  owned: number
  /** Of those, the ones with a link to their own document and field. */
  linked: number
  /** Owned texts without a link, not excepted: each a failure. */
  unlinked: { text: string; where: string; fields: string[] }[]
  /** Owned texts without a link that `STEGA_EXCEPTIONS` allows. */
  excepted: { text: string; reason: string }[]
  /** Links whose field does not hold the text they sit on: each a failure. */
  wrong: { text: string; where: string; link: string; fields: string[] }[]
  /** Linked texts whose element a pointer cannot reach, so no overlay shows: each a failure. */
  unreachable: { text: string; where: string }[]
}

type Doc = { _id: string; _type: string; [field: string]: unknown }

const normal = (text: string) => stegaClean(text).replace(/\s+/g, ' ').trim()

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Portable text's plain text, by GROQ's own `pt::text` (groq-js), as the card's query reads it. */
function ptText(blocks: unknown[]): string | null {
  const text: unknown = toJS(
    evaluateSync(parse('pt::text($blocks)', { params: { blocks } }), { params: { blocks } }),
  )
  return typeof text === 'string' ? text : null
}

/**
 * What the site shows of a string field besides the string itself: the list card's
 * 120-character preview of a case study's issue (`excerpt` of its portable text) and a
 * portfolio site's host (`siteHost`), both from lib/text.ts as the components make them.
 */
export function derivedStrings(value: string | unknown[]): string[] {
  if (Array.isArray(value)) {
    const text = ptText(value)
    return text ? [text, excerpt(text)] : []
  }
  return /^https?:\/\//.test(value) && URL.canParse(value) ? [siteHost(value)] : []
}

/**
 * The routes of an editor's preview for the documents it shows: the home page, the case
 * studies' list and each case study, /sites, /consultation, and the 404 page.
 */
export function previewRoutes(documents: Doc[]): string[] {
  const slugs = documents
    .filter((doc) => doc._type === 'caseStudy')
    .map((doc) => (doc.slug as { current: string }).current)
  return [
    '/',
    '/case-studies',
    ...slugs.map((slug) => `/case-studies/${slug}`),
    '/sites',
    '/consultation',
    NOT_FOUND_ROUTE,
  ]
}

/**
 * Every text an editor can change in `documents`, and the fields it comes from. It walks
 * the documents itself, apart from lib/content/source-map.ts, so the check does not rest on
 * the code it checks.
 * @param documents the documents the preview shows (a perspective's view: published ids)
 * @returns normalised text -> `id|path` of each field holding it (or computed from it)
 */
export function ownedTexts(documents: Doc[]): Map<string, Set<string>> {
  const owned = new Map<string, Set<string>>()
  const add = (text: string, id: string, path: studioPath.Path) => {
    const key = normal(text)
    if (!key) return
    const refs = owned.get(key) ?? new Set()
    refs.add(`${id}|${studioPath.toString(path)}`)
    owned.set(key, refs)
  }
  for (const doc of documents) {
    if (doc._type.startsWith('sanity.') || doc._type.startsWith('system.')) continue
    const walk = (value: unknown, path: studioPath.Path): void => {
      if (typeof value === 'string') {
        add(value, doc._id, path)
        for (const derived of derivedStrings(value)) add(derived, doc._id, path)
      } else if (Array.isArray(value)) {
        for (const derived of derivedStrings(value)) add(derived, doc._id, path)
        value.forEach((item, index) => {
          const key = isRecord(item) && typeof item._key === 'string' ? item._key : null
          walk(item, [...path, key ? { _key: key } : index])
        })
      } else if (isRecord(value)) {
        for (const [key, child] of Object.entries(value))
          if (!key.startsWith('_')) walk(child, [...path, key])
      }
    }
    walk(doc, [])
  }
  return owned
}

/**
 * The document and field a page text links to, read as the overlays read it (visual
 * editing's own decoder): its stega's edit link, else its element's `data-sanity`
 * attribute; null when it has neither.
 */
export function linkOf(item: PageText): FieldRef | null {
  const { encoded } = vercelStegaSplit(item.text)
  const node = encoded
    ? decodeSanityNodeData(vercelStegaDecode(encoded) as Parameters<typeof decodeSanityNodeData>[0])
    : item.sanity
      ? decodeSanityNodeData(item.sanity)
      : undefined
  return node && 'id' in node && node.id && node.path ? { id: node.id, path: node.path } : null
}

/** True when a link names one of `fields`, or a place inside one (a span of a portable text field). */
function linksTo(link: FieldRef, fields: Set<string>): boolean {
  const named = `${link.id}|${link.path}`
  for (const field of fields)
    if (named === field || named.startsWith(`${field}[`) || named.startsWith(`${field}.`)) return true
  return false
}

/**
 * The click-to-edit coverage of one page.
 * @param texts the page's texts (`PageText`), as the browser has them
 * @param owned `ownedTexts` of the documents the page's perspective shows
 */
export function coverageOf(
  texts: PageText[],
  owned: Map<string, Set<string>>,
  exceptions: StegaException[] = STEGA_EXCEPTIONS,
): Coverage {
  const coverage: Coverage = { owned: 0, linked: 0, unlinked: [], excepted: [], wrong: [], unreachable: [] }
  for (const item of texts) {
    const text = normal(item.text)
    const fields = owned.get(text)
    const link = linkOf(item)
    if (link && (!fields || !linksTo(link, fields))) {
      coverage.wrong.push({
        text,
        where: item.where,
        link: `${link.id}|${link.path}`,
        fields: [...(fields ?? [])],
      })
      continue
    }
    if (!fields) continue
    coverage.owned += 1
    if (link && item.reachable === false) {
      coverage.unreachable.push({ text, where: item.where })
      continue
    }
    if (link) {
      coverage.linked += 1
      continue
    }
    const exception = exceptions.find((rule) =>
      typeof rule.text === 'string' ? rule.text === text : rule.text.test(text),
    )
    if (exception) coverage.excepted.push({ text, reason: exception.reason })
    else coverage.unlinked.push({ text, where: item.where, fields: [...fields] })
  }
  return coverage
}

/**
 * Runs in the page (Playwright's `page.evaluate`): every text node of the body outside
 * scripts, styles and visual editing's own overlays, and every image's alt text, with the
 * nearest `data-sanity` attribute, and whether a pointer reaches it. Text inside an `<svg>` is left out: an inline SVG is a
 * content image drawn into the page (lib/content/inline-image.ts), whose words belong to the
 * image file, changed by uploading another (its alt text is counted).
 */
export function collectPageTexts(): PageText[] {
  const texts: PageText[] = []
  const skip = 'script, style, noscript, template, sanity-visual-editing, svg'
  /**
   * Whether the pointer, at the middle of what shows of the element (scrolled there), is
   * over it. Null when nothing of it shows now: hidden, visually hidden for screen readers
   * (a 1 px box), or clipped away by a folded box (an FAQ answer opens when its question is
   * hovered, and is reachable then).
   */
  const reachable = (element: Element): boolean | null => {
    if (!element.checkVisibility({ visibilityProperty: true })) return null
    element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' })
    let { left, top, right, bottom } = element.getBoundingClientRect()
    for (let box = element.parentElement; box; box = box.parentElement) {
      if (getComputedStyle(box).overflow === 'visible') continue
      const clip = box.getBoundingClientRect()
      ;[left, top, right, bottom] = [
        Math.max(left, clip.left),
        Math.max(top, clip.top),
        Math.min(right, clip.right),
        Math.min(bottom, clip.bottom),
      ]
    }
    if (right - left <= 1 || bottom - top <= 1) return null
    const hit = document.elementFromPoint((left + right) / 2, (top + bottom) / 2)
    return hit !== null && (element.contains(hit) || hit.closest('sanity-visual-editing') !== null)
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement
    if (!element || element.closest(skip) || !node.textContent?.trim()) continue
    const owner = element.closest('[data-sanity]') ?? element
    texts.push({
      text: node.textContent,
      sanity: element.closest('[data-sanity]')?.getAttribute('data-sanity') ?? null,
      where: element.tagName.toLowerCase(),
      reachable: reachable(owner),
    })
  }
  for (const image of document.querySelectorAll('img[alt], svg[aria-label]')) {
    const text = image.getAttribute('alt') ?? image.getAttribute('aria-label') ?? ''
    if (!text.trim() || image.closest('sanity-visual-editing')) continue
    texts.push({
      text,
      sanity: image.closest('[data-sanity]')?.getAttribute('data-sanity') ?? null,
      where: `${image.tagName.toLowerCase()}[alt]`,
      reachable: reachable(image),
    })
  }
  window.scrollTo(0, 0)
  return texts
}
