/** The parse5 walk of an HTML document's elements (the build's rewrites, the publisher's gate) and offset edits that change only the bytes they mean to. */
import { parse, type DefaultTreeAdapterMap } from 'parse5'

type Node = DefaultTreeAdapterMap['node']
type Element = DefaultTreeAdapterMap['element']

/** Every element of a document in document order, `<template>` contents included, with source offsets. */
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

/** The text of an element's children (a script's code). */
export const textOf = (element: Element): string =>
  element.childNodes.map((child) => ('value' in child ? child.value : '')).join('')

/** An attribute's value by lower-case name ('' for a boolean one), or undefined. */
export const attributeOf = (element: Element, name: string): string | undefined =>
  element.attrs.find((attribute) => attribute.name === name)?.value

/** Replace `html.slice(start, end)` with `text` ('' to cut; start === end to insert). */
export type HtmlEdit = { start: number; end: number; text?: string }

/** Applies non-overlapping edits at offsets of the original string, in any order (an insertion sorts before a cut at the same offset). */
export function applyEdits(html: string, edits: readonly HtmlEdit[]): string {
  let out = ''
  let from = 0
  for (const edit of [...edits].sort((a, b) => a.start - b.start || a.end - b.end)) {
    out += html.slice(from, edit.start) + (edit.text ?? '')
    from = edit.end
  }
  return out + html.slice(from)
}
