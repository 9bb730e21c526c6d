/** Every assumption the postbuild makes about Next's export, one name each; `assertRewritten` fails a build where it drifted. */
import path from 'node:path'
import type { DefaultTreeAdapterMap } from 'parse5'
import { attributeOf, elementsOf, textOf } from '../lib/html-elements.ts'

type Element = DefaultTreeAdapterMap['element']

/** Where Next serves its own build output: only scripts under it are moved, never a third party's. */
export const FRAMEWORK_PREFIX = '/_next/static/'

/** A chunk Next writes as `<script src="/_next/static/chunks/….js" async="">`; its `noModule` polyfills are left alone. */
export function isFrameworkChunkScript(element: Element): boolean {
  return (
    element.tagName === 'script' &&
    (attributeOf(element, 'src')?.startsWith(FRAMEWORK_PREFIX) ?? false) &&
    attributeOf(element, 'async') !== undefined
  )
}

/** Next's `<link rel="preload" as="script" href="/_next/static/…">` of the same chunks. */
export function isFrameworkScriptPreload(element: Element): boolean {
  return (
    element.tagName === 'link' &&
    attributeOf(element, 'rel') === 'preload' &&
    attributeOf(element, 'as') === 'script' &&
    (attributeOf(element, 'href')?.startsWith(FRAMEWORK_PREFIX) ?? false)
  )
}

// One chunk of the inline RSC payload, which Next also writes, byte for byte, as the page's `.txt`.
const PAYLOAD_CHUNK = /^self\.__next_f\.push\((\[1,"(?:[^"\\]|\\.)*"\])\)$/

/** The payload text an inline script's code pushes, or undefined when it is no payload chunk. */
export function payloadChunkText(code: string): string | undefined {
  const chunk = PAYLOAD_CHUNK.exec(code)?.[1]
  return chunk === undefined ? undefined : (JSON.parse(chunk) as [1, string])[1]
}

/** The not-found page, which Next writes twice: `404.html` for static hosts, and its route's own file. */
export const NOT_FOUND_PAGES = { served: '404.html', twin: '_not-found.html' } as const

/** The payload file beside an exported page (absolute paths): `<page>.txt`, `_not-found.txt` for `404.html`; it may not exist. */
export function payloadFileOf(root: string, file: string): string {
  if (path.relative(root, file) === NOT_FOUND_PAGES.served)
    return path.join(root, NOT_FOUND_PAGES.twin.replace(/\.html$/, '.txt'))
  return file.replace(/\.html$/, '.txt')
}

/** A next/font file marked for preloading (`<face>-s.p.<hash>.woff2`) as the inline CSS (`experimental.inlineCss`) names it. */
export const PRELOADABLE_FONT = /url\((\/_next\/static\/media\/[\w.-]+\.p\.[\w-]+\.woff2)\)/g

/** The link Next writes in `<head>` for a preloaded next/font file. */
export const fontPreloadLink = (href: string) =>
  `<link rel="preload" href="${href}" as="font" crossorigin="" type="font/woff2"/>`

/** What the rewriting left in a page if a pattern above stopped matching (looser patterns than the steps'), one a pattern. */
export function driftOf(html: string, payloadFileExists: boolean): { pattern: string; found: string }[] {
  const elements = elementsOf(html)
  const find = (tag: string, matches: (attribute: (name: string) => string | undefined) => boolean) =>
    elements.find((element) => element.tagName === tag && matches((name) => attributeOf(element, name)))
  const chunk = find('script', (a) => (a('src') ?? '').includes('/_next/') && a('nomodule') === undefined)
  const preload = find('link', (a) => a('as') === 'script' && (a('href') ?? '').includes('/_next/'))
  const payloads = elements.filter(
    (element) =>
      element.tagName === 'script' &&
      attributeOf(element, 'src') === undefined &&
      /self\.__next_f\.push\(\[1,/.test(textOf(element)),
  ).length
  const font = elements.find(
    (element) =>
      element.tagName === 'link' &&
      attributeOf(element, 'rel') === 'preload' &&
      attributeOf(element, 'as') === 'font' &&
      element.parentNode?.nodeName !== 'noscript',
  )
  const css = find('link', (a) => a('rel') === 'stylesheet' && (a('href') ?? '').startsWith(FRAMEWORK_PREFIX))
  const checks: [pattern: string, found: string | false | undefined][] = [
    [
      'isFrameworkChunkScript: <script src="/_next/static/…" async>',
      chunk && `<script src="${attributeOf(chunk, 'src')}"> still in the page`,
    ],
    [
      'isFrameworkScriptPreload: <link rel="preload" as="script" href="/_next/static/…">',
      preload && `<link href="${attributeOf(preload, 'href')}"> still in the page`,
    ],
    [
      payloadFileExists
        ? 'PAYLOAD_CHUNK: self.__next_f.push([1,"…"]), byte for byte the payload file'
        : 'payloadFileOf: <page>.txt beside the page (_not-found.txt for 404.html)',
      payloads > 0 && `${payloads} inline RSC payload script(s) still in the page`,
    ],
    [
      'PRELOADABLE_FONT: url(/_next/static/media/…-s.p.….woff2) in the inline CSS',
      font && `<link rel="preload" as="font" href="${attributeOf(font, 'href')}"> still in the page`,
    ],
    [
      'experimental.inlineCss: the stylesheet inline in <head>',
      css && `<link rel="stylesheet" href="${attributeOf(css, 'href')}">`,
    ],
  ]
  return checks.flatMap(([pattern, found]) => (found ? [{ pattern, found }] : []))
}

/** Fails the build, naming the page, each pattern and what it found, when a rewritten page drifted (`driftOf`). */
export function assertRewritten(page: string, html: string, payloadFileExists: boolean): void {
  const drifts = driftOf(html, payloadFileExists)
  if (drifts.length === 0) return
  throw new Error(
    `postbuild: ${page}: Next's export no longer has the shape site-build/next-export-shape.ts expects:\n` +
      drifts.map((drift) => `  - ${drift.pattern} did not match (${drift.found})`).join('\n'),
  )
}
