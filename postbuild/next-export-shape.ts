/**
 * Every assumption the postbuild makes about the shape of Next.js's static export
 * (Next 16.4, `output: 'export'`, App Router), one named constant or function each,
 * with the reason beside it. The rewriting steps (defer-framework-scripts.ts,
 * adaptive-font-preload.ts, index.ts) read the export only through these.
 *
 * When Next changes what it writes, a pattern here stops matching and a step would
 * return the page unchanged: the site would silently lose its fast first paint.
 * `driftOf` catches that after the rewriting, with looser patterns than the ones the
 * steps match, and the build fails naming the page and the pattern
 * (`assertRewritten`). The contract test (tests/e2e/next-export-contract.spec.ts)
 * runs the whole postbuild on a real Next build, so an upgrade that changes the
 * shape fails CI, not the live site.
 */
import path from 'node:path'
import type { DefaultTreeAdapterMap } from 'parse5'
import { attributeOf, elementsOf, textOf } from '../lib/html-elements.ts'

type Element = DefaultTreeAdapterMap['element']

/**
 * Where Next serves its own build output (chunks, CSS, fonts). Only scripts under it
 * are moved: never a third-party script.
 */
export const FRAMEWORK_PREFIX = '/_next/static/'

/**
 * Next writes each chunk of its runtime and of the page as
 * `<script src="/_next/static/chunks/….js" async="">` (in `<head>`, and at the end of
 * `<body>` for the page's chunks). Its legacy polyfills come as `noModule`, which
 * modern browsers skip: those are left alone.
 */
export function isFrameworkChunkScript(element: Element): boolean {
  return (
    element.tagName === 'script' &&
    (attributeOf(element, 'src')?.startsWith(FRAMEWORK_PREFIX) ?? false) &&
    attributeOf(element, 'async') !== undefined
  )
}

/** Next preloads the same chunks with `<link rel="preload" as="script" href="/_next/static/…">`. */
export function isFrameworkScriptPreload(element: Element): boolean {
  return (
    element.tagName === 'link' &&
    attributeOf(element, 'rel') === 'preload' &&
    attributeOf(element, 'as') === 'script' &&
    (attributeOf(element, 'href')?.startsWith(FRAMEWORK_PREFIX) ?? false)
  )
}

/**
 * One chunk of the page's inline RSC payload: an inline script whose whole code is
 * `self.__next_f.push([1,"…"])` (a JSON string). Next writes the page's payload twice,
 * inline in these (hydration reads them) and as a file (client navigations fetch it),
 * byte for byte the same.
 */
const PAYLOAD_CHUNK = /^self\.__next_f\.push\((\[1,"(?:[^"\\]|\\.)*"\])\)$/

/**
 * @param code an inline script's code
 * @returns the payload text it pushes, or undefined when it is no payload chunk
 */
export function payloadChunkText(code: string): string | undefined {
  const chunk = PAYLOAD_CHUNK.exec(code)?.[1]
  return chunk === undefined ? undefined : (JSON.parse(chunk) as [1, string])[1]
}

/**
 * The not-found page: Next writes it twice, as `_not-found.html` (its route's own
 * file, with `_not-found.txt`) and as `404.html` (what static hosts answer an unknown
 * path with), and no `404.txt`.
 */
export const NOT_FOUND_PAGES = { served: '404.html', twin: '_not-found.html' } as const

/**
 * The RSC payload file Next writes beside an exported page: `<page>.txt`, except for
 * the 404 page, whose payload is its twin's, `_not-found.txt` (Next writes `404.html`
 * as a copy of `_not-found.html` and no `404.txt`). The caller still cuts the inline
 * copy only when the file holds the same bytes.
 * @param root absolute path of the export
 * @param file absolute path of an `.html` file in it
 * @returns the absolute path of its payload file (which may not exist)
 */
export function payloadFileOf(root: string, file: string): string {
  if (path.relative(root, file) === NOT_FOUND_PAGES.served)
    return path.join(root, NOT_FOUND_PAGES.twin.replace(/\.html$/, '.txt'))
  return file.replace(/\.html$/, '.txt')
}

/**
 * A next/font file marked for preloading (`preload: true` names it `<face>-s.p.<hash>.woff2`),
 * as the page's CSS refers to it. The CSS is in the page because the site sets
 * `experimental.inlineCss` (next.config.mjs): that is how the step finds the fonts a
 * page uses, the 404 page's included, which Next writes without a preload link.
 */
export const PRELOADABLE_FONT = /url\((\/_next\/static\/media\/[\w.-]+\.p\.[\w-]+\.woff2)\)/g

/** The link Next writes in `<head>` for a preloaded next/font file. */
export const fontPreloadLink = (href: string) =>
  `<link rel="preload" href="${href}" as="font" crossorigin="" type="font/woff2"/>`

/** What the rewriting left that it should have moved, in one page. */
export type Drift = { pattern: string; found: string }

/**
 * Looks for what Next's export shape would leave behind if one of the patterns above
 * stopped matching, using looser patterns than the steps themselves.
 * @param html a page after the rewriting
 * @param payloadFileExists whether the page's payload file (`payloadFileOf`) exists
 * @returns one entry per pattern that did not match; empty for a fully rewritten page
 */
export function driftOf(html: string, payloadFileExists: boolean): Drift[] {
  const elements = elementsOf(html)
  const scripts = elements.filter((element) => element.tagName === 'script')
  const link = (matches: (attribute: (name: string) => string | undefined) => boolean) =>
    elements.find((element) => element.tagName === 'link' && matches((name) => attributeOf(element, name)))
  const leftPayload = scripts.filter(
    (element) =>
      attributeOf(element, 'src') === undefined && /self\.__next_f\.push\(\[1,/.test(textOf(element)),
  )
  // Each pattern, and what it left in the page when it stopped matching (undefined: nothing).
  const checks: [pattern: string, found: () => string | undefined][] = [
    [
      'isFrameworkChunkScript: <script src="/_next/static/…" async>',
      () => {
        const left = scripts.find(
          (element) =>
            (attributeOf(element, 'src') ?? '').includes('/_next/') &&
            attributeOf(element, 'nomodule') === undefined,
        )
        return left && `<script src="${attributeOf(left, 'src')}"> still in the page`
      },
    ],
    [
      'isFrameworkScriptPreload: <link rel="preload" as="script" href="/_next/static/…">',
      () => {
        const left = link(
          (attribute) => attribute('as') === 'script' && (attribute('href') ?? '').includes('/_next/'),
        )
        return left && `<link href="${attributeOf(left, 'href')}"> still in the page`
      },
    ],
    [
      payloadFileExists
        ? 'PAYLOAD_CHUNK: self.__next_f.push([1,"…"]), byte for byte the payload file'
        : 'payloadFileOf: <page>.txt beside the page (_not-found.txt for 404.html)',
      () =>
        leftPayload.length
          ? `${leftPayload.length} inline RSC payload script(s) still in the page`
          : undefined,
    ],
    [
      'PRELOADABLE_FONT: url(/_next/static/media/…-s.p.….woff2) in the inline CSS',
      () => {
        const left = elements.find(
          (element) =>
            element.tagName === 'link' &&
            attributeOf(element, 'rel') === 'preload' &&
            attributeOf(element, 'as') === 'font' &&
            element.parentNode?.nodeName !== 'noscript',
        )
        return left && `<link rel="preload" as="font" href="${attributeOf(left, 'href')}"> still in the page`
      },
    ],
    [
      'experimental.inlineCss: the stylesheet inline in <head>',
      () => {
        const left = link(
          (attribute) =>
            attribute('rel') === 'stylesheet' && (attribute('href') ?? '').startsWith(FRAMEWORK_PREFIX),
        )
        return left && `<link rel="stylesheet" href="${attributeOf(left, 'href')}">`
      },
    ],
  ]
  return checks.flatMap(([pattern, found]) => {
    const left = found()
    return left ? [{ pattern, found: left }] : []
  })
}

/**
 * Fails the build when a page came out of the rewriting with something of Next's
 * still in place (see `driftOf`).
 * @param page the page's path in the export, e.g. `case-studies.html`
 * @param html the page after the rewriting
 * @param payloadFileExists whether its payload file exists
 * @throws Error naming the page, each pattern that did not match and what was found
 */
export function assertRewritten(page: string, html: string, payloadFileExists: boolean): void {
  const drifts = driftOf(html, payloadFileExists)
  if (drifts.length === 0) return
  throw new Error(
    `postbuild: ${page}: Next's export no longer has the shape postbuild/next-export-shape.ts expects:\n` +
      drifts.map((drift) => `  - ${drift.pattern} did not match (${drift.found})`).join('\n'),
  )
}
