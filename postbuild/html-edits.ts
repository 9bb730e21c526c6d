/**
 * Small helpers for the build steps that rewrite exported pages by their parse5
 * source locations (paint-first.ts, font-preload.ts): they change only the bytes
 * they mean to, and leave the rest of the document exactly as Next wrote it.
 */
import { parse, type DefaultTreeAdapterMap } from 'parse5'

type Node = DefaultTreeAdapterMap['node']
type Element = DefaultTreeAdapterMap['element']

/**
 * Every element of a document in document order, `<template>` contents included,
 * each with its parse5 source location (offsets into `html`).
 * @param html a complete HTML document
 */
export function elementsOf(html: string): Element[] {
  const elements: Element[] = []
  const visit = (node: Node) => {
    if ('tagName' in node) elements.push(node as Element)
    const children = 'content' in node ? node.content.childNodes : 'childNodes' in node ? node.childNodes : []
    for (const child of children) visit(child)
  }
  visit(parse(html, { sourceCodeLocationInfo: true }))
  return elements
}

/**
 * @param element a parse5 element
 * @returns the text of its children (a script's code)
 */
export const textOf = (element: Element): string =>
  element.childNodes.map((child) => ('value' in child ? child.value : '')).join('')

/**
 * @param element a parse5 element
 * @param name an attribute name, lower case
 * @returns its value ('' for a boolean attribute), or undefined when it has none
 */
export const attributeOf = (element: Element, name: string): string | undefined =>
  element.attrs.find((attribute) => attribute.name === name)?.value

/** Replace `html.slice(start, end)` with `text` ('' to cut; start === end to insert). */
export type HtmlEdit = { start: number; end: number; text?: string }

/**
 * Applies edits at offsets of the original string (e.g. parse5's `sourceCodeLocation`).
 * @param html the original document
 * @param edits non-overlapping edits, in any order; an insertion sorts before a cut at the same offset
 * @returns the edited document
 */
export function applyEdits(html: string, edits: readonly HtmlEdit[]): string {
  let out = ''
  let from = 0
  for (const edit of [...edits].sort((a, b) => a.start - b.start || a.end - b.end)) {
    out += html.slice(from, edit.start) + (edit.text ?? '')
    from = edit.end
  }
  return out + html.slice(from)
}
