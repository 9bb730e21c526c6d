/**
 * Old addresses and where they lead, and what a build writes for them. A case study
 * has one page, at its slug (`/case-studies/osteopath-lancing`); its legacy id
 * (`/case-studies/Osteopath%20Lancing`, product §2) and any slug an editor replaced
 * since (the live build's addresses, read back) are old addresses, each answered by a
 * permanent redirect to the page, never by a copy of it. `caseStudyRedirects` is the one
 * place that decides which old address goes where; the rest writes its answer three ways:
 * - `.redirects.json` (lib/build-output.ts): the publisher redirects from it, and the
 *   next build reads it as its history;
 * - `_redirects` (Netlify / Cloudflare Pages format), for hosts that read it;
 * - a small page at each old address (canonical link, an immediate refresh, a visible
 *   link), for hosts that can do neither.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import {
  decodedPath,
  FALLBACKS,
  REDIRECT_STATUS,
  urlPathOf,
  type Redirect,
  type RedirectsManifest,
} from '../lib/build-output.ts'
import type { CaseStudyAddress } from '../lib/page-documents.ts'
import type { HtmlPage } from './security-headers.ts'

/**
 * Characters the URL parser would not keep in a segment as they are, percent-encoded before
 * it sees them: `%`, `/`, `?`, `#` and `\` would end or split it, tabs and newlines are
 * dropped, and spaces or control characters at its end trimmed.
 */
const SEGMENT_BREAKERS = /[%/?#\\\x00-\x20]/g

/**
 * The address of a case study's page for a slug or legacy id, percent-encoded as a browser
 * sends it (the URL standard's path encoding: `Osteopath Lancing` -> `Osteopath%20Lancing`,
 * `é` -> `%C3%A9`, while `'` or `:` stay as they are).
 * @param segment a slug or legacy id, as stored
 * @returns the URL path, or null for a segment no URL can name (empty, `.`, `..`)
 */
export function caseStudyPath(segment: string): string | null {
  if (segment === '' || segment === '.' || segment === '..') return null
  const escaped = segment.replace(
    SEGMENT_BREAKERS,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  )
  return new URL(`/case-studies/${escaped}`, 'http://site').pathname
}

/**
 * Which old address of a case study goes where, for one build. Old addresses are each
 * case study's legacy id, then (from the live build's manifest, `previous`) the page and
 * old addresses each case study had there. Rules:
 * - each leads to its case study's page in this build, found by `_id`, so there are no
 *   chains: an old slug of an old slug leads straight to today's page;
 * - none shadows an address of this build: another case study's slug or legacy id keeps
 *   its page or its own redirect, whichever build the old address came from;
 * - a case study that is gone (unpublished, deleted) takes its old addresses with it;
 * - one redirect an address (compared decoded), the first in the order above.
 * @param studies every case study of the build (the postbuild's `caseStudyPathsQuery`)
 * @param previous the live build's `.redirects.json`, or null (no live build, or one made
 *   before the file existed: no history)
 * @returns each case study's page by `_id`, and the redirects sorted by `from`
 */
export function caseStudyRedirects(
  studies: readonly CaseStudyAddress[],
  previous: RedirectsManifest | null = null,
): RedirectsManifest {
  const pages = new Map<string, string>()
  const pageAddresses = new Set<string>()
  for (const study of studies) {
    const page = caseStudyPath(study.slug)
    if (page === null) continue
    pages.set(study._id, page)
    pageAddresses.add(decodeURIComponent(page))
  }
  const legacyOwners = new Map<string, string>()
  const legacy = studies.flatMap((study) => {
    const from = caseStudyPath(study.legacyId)
    if (from === null) return []
    legacyOwners.set(decodeURIComponent(from), study._id)
    return [{ from, _id: study._id }]
  })
  const candidates = [
    ...legacy,
    ...Object.entries(previous?.pages ?? {}).map(([_id, from]) => ({ from, _id })),
    ...(previous?.redirects ?? []).map(({ from, _id }) => ({ from, _id })),
  ]
  const redirects = new Map<string, Redirect>()
  for (const { from, _id } of candidates) {
    const to = pages.get(_id)
    const address = decodedPath(from)
    if (to === undefined || address === null || redirects.has(address)) continue
    if (pageAddresses.has(address) || (legacyOwners.get(address) ?? _id) !== _id) continue
    redirects.set(address, { from, to, _id })
  }
  return {
    pages: Object.fromEntries(pages),
    redirects: [...redirects.values()].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0)),
  }
}

/** A `from` a host would read as a pattern (`*` splat, `:name` placeholder), not as one address. */
const PATTERN = /\*|:\w/

/**
 * `_redirects` (Netlify / Cloudflare Pages format): each old address with a permanent
 * redirect (`/case-studies/Osteopath%20Lancing  /case-studies/osteopath-lancing  301`:
 * fields split on whitespace, so paths percent-encoded, as both hosts' documentation
 * asks), then the rewrites the publisher does itself (`FALLBACKS` in lib/build-output.ts),
 * e.g. every `/studio/...` deep link answered with the Studio page. Old addresses come
 * first: Cloudflare counts every rule after the first pattern as a pattern (at most 100).
 * Not forced (`301!`): Cloudflare takes no `!` (it drops the line) and redirects even when
 * a file is there; Netlify, unforced, serves the file at the address, the small page that
 * redirects by itself (`redirectPage`). An address a host would read as a pattern gets no
 * line; its page still redirects.
 * @param files the build's files, relative to its root
 * @param redirects the build's old addresses (caseStudyRedirects)
 * @returns the file's text
 */
export function redirectsFile(files: string[], redirects: readonly Redirect[] = []): string {
  const moved = redirects
    .filter((redirect) => !PATTERN.test(redirect.from))
    .map((redirect) => `${redirect.from}  ${redirect.to}  ${REDIRECT_STATUS}`)
  const fallbacks = FALLBACKS.filter((fallback) => files.includes(fallback.file)).map(
    (fallback) => `${fallback.prefix}*  /${fallback.file.replace(/\.html$/, '')}  200`,
  )
  return `# Generated by scripts/postbuild.ts. Do not edit.\n${[...moved, ...fallbacks].join('\n')}\n`
}

/** Text for HTML: `&`, `<`, `>` and quotes escaped. */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)

/**
 * The page at an old address, for hosts that can redirect nothing: valid HTML (the Nu
 * checker's), with the page's canonical URL (as the page itself names it, on the site's
 * address), an immediate refresh to the page on the same host, which search engines read
 * as a permanent redirect, and a visible link for a browser that refreshes nothing.
 * @param redirect the old address and its page
 * @param siteUrl the site's address (site settings' `siteUrl`)
 * @returns the whole document
 * @throws TypeError when siteUrl is not an absolute URL
 */
export function redirectPage(redirect: Redirect, siteUrl: string): string {
  const canonical = escapeHtml(new URL(redirect.to, siteUrl).href)
  const to = escapeHtml(redirect.to)
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>This page has moved</title>
<link rel="canonical" href="${canonical}">
<meta http-equiv="refresh" content="0; url=${to}">
</head>
<body>
<p>This page has moved to <a href="${to}">${canonical}</a>.</p>
</body>
</html>
`
}

/** Longest file name most file systems take, in bytes. */
const MAX_NAME_BYTES = 255

/**
 * Writes `redirectPage` at each old address whose page file can be written: every
 * segment a plain file name (no dot file, which nothing serves, no `\`), and no other file
 * by that name already there. A file already there is never replaced: on a disk that ignores
 * case, `How-I-Saved-40-Hours.html` is the page `how-i-saved-40-hours.html` itself.
 * Such an address keeps its redirect on the publisher and in `_redirects`.
 * @param root absolute path of the export
 * @param redirects the build's old addresses (caseStudyRedirects)
 * @param siteUrl the site's address, for the canonical link
 * @returns the pages written (URL path and HTML), for `_headers`
 */
export async function writeRedirectPages(
  root: string,
  redirects: readonly Redirect[],
  siteUrl: string,
): Promise<HtmlPage[]> {
  const written: HtmlPage[] = []
  for (const redirect of redirects) {
    const parts = decodedPath(redirect.from)?.slice(1).split('/') ?? []
    const name = `${parts.at(-1) ?? ''}.html`
    const plain = parts.every((part) => part !== '' && !part.startsWith('.') && !/[\\\0]/.test(part))
    if (!parts.length || !plain || Buffer.byteLength(name) > MAX_NAME_BYTES) continue
    const file = [...parts.slice(0, -1), name].join('/')
    const html = redirectPage(redirect, siteUrl)
    await mkdir(path.dirname(path.join(root, file)), { recursive: true })
    try {
      await writeFile(path.join(root, file), html, { flag: 'wx' })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      // The same page from an earlier run over this export is still this build's.
      if ((await readFile(path.join(root, file), 'utf8')) !== html) continue
    }
    written.push({ urlPath: urlPathOf(file), html })
  }
  return written
}
