/**
 * Reading an HTML document's elements with parse5: the one walk that both programs use,
 * the postbuild (which rewrites pages by these elements' source offsets,
 * postbuild/html-edits.ts) and the publisher's gate (which checks their links).
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
