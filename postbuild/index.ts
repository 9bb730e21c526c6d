/**
 * The postbuild: the last step of `npm run build` (scripts/postbuild.ts), which turns
 * Next's export in `out/` into a deployable site, in place and in this order:
 * 1. decodes percent-encoded file names (decode-file-names.ts);
 * 2. rewrites every page: the font preload made adaptive, and added where Next left it
 *    out (adaptive-font-preload.ts); Next's scripts started after the first paint and
 *    the inline RSC payload fetched from its file (defer-framework-scripts.ts); then
 *    checks that nothing of Next's shape was left behind (next-export-shape.ts);
 * 3. writes a small page at each old address (a case study's legacy id, a slug it had
 *    before), then `_headers` (security-headers.ts) and `_redirects` (redirects-file.ts);
 * 4. precompresses (precompress.ts);
 * 5. writes `.page-documents.json`, each page's main documents, for the publish gate's
 *    messages (lib/page-documents.ts), `.redirects.json`, the old addresses the
 *    publisher redirects (lib/build-output.ts), and `.script-hashes.json`, each page's
 *    inline script hashes for the next build (security-headers.ts): dot files, never served;
 * 6. writes the completion marker, `.build.json` (lib/build-output.ts), last: the
 *    publisher never puts a build live without it.
 * It imports nothing of the publisher (`server/`); what both read is lib/build-output.ts.
 */
import { randomBytes } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import {
  BUILD_MARKER,
  listFiles,
  REDIRECTS_FILE,
  urlPathOf,
  type BuildInfo,
  type RedirectsManifest,
} from '../lib/build-output.ts'
import { PAGE_DOCUMENTS_FILE, type PageDocuments } from '../lib/page-documents.ts'
import { preloadPageFonts } from './adaptive-font-preload.ts'
import { decodeFileNames } from './decode-file-names.ts'
import { deferFrameworkScripts } from './defer-framework-scripts.ts'
import { assertRewritten, payloadFileOf } from './next-export-shape.ts'
import { precompressSite, type PrecompressResult } from './precompress.ts'
import { redirectsFile, writeRedirectPages } from './redirects-file.ts'
import { formatHeadersFile, headerRules, inlineScriptHashes, SCRIPT_HASHES_FILE } from './security-headers.ts'
import type { IntegrationSettings } from '../lib/content-security-policy.ts'

/**
 * A sortable, unique build id: UTC time to the millisecond plus 4 random hex digits,
 * e.g. `20261122-183012-345-a3f9`.
 */
export function newBuildId(now = new Date()): string {
  const iso = now.toISOString() // 2026-11-22T18:30:12.345Z
  const stamp = `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}-${iso.slice(20, 23)}`
  return `${stamp}-${randomBytes(2).toString('hex')}`
}

/** What `finalizeExport` did, for the build log. */
export type FinalizeResult = {
  info: BuildInfo
  renamed: string[]
  pages: number
  compressed: PrecompressResult
}

/**
 * Finalizes an export in place (see the module comment).
 * @param root absolute path of Next's export (`out/`)
 * @param settings the integrations site settings name (for the Content-Security-Policy)
 * @param options cacheDir: cache of compressed copies between builds (see precompressSite);
 *   studioProjectId: the project the embedded Studio edits, if any (its page's CSP allows Sanity);
 *   pageDocuments: each page's main documents, written to `.page-documents.json` (none: `{}`);
 *   redirects: the old addresses (caseStudyRedirects, redirects-file.ts) and the site's
 *   address for their pages' canonical links, written to `.redirects.json` (none: empty);
 *   reused: files taken from the live build, final already (relative paths; their pages
 *   are not rewritten again, their headers are); reusedScriptHashes: the live build's
 *   SCRIPT_HASHES_FILE, so that those pages are not parsed again (one missing is parsed)
 * @throws Error when the export has no index.html (Next did not finish), or when a page
 *   comes out of the rewriting with Next's scripts or inline payload still in place
 *   (`assertRewritten`: Next's export shape changed); no marker is written then
 */
export async function finalizeExport(
  root: string,
  settings: IntegrationSettings,
  options: {
    cacheDir?: string
    studioProjectId?: string | null
    pageDocuments?: PageDocuments
    redirects?: RedirectsManifest & { siteUrl: string }
    reused?: ReadonlySet<string>
    reusedScriptHashes?: Readonly<Record<string, readonly string[]>>
  } = {},
): Promise<FinalizeResult> {
  const renamed = await decodeFileNames(root)
  const files = await listFiles(root)
  if (!files.includes('index.html')) throw new Error(`${root}: no index.html, not an export`)
  const fileSet = new Set(files)
  const pages = await Promise.all(
    files
      .filter((relative) => relative.endsWith('.html'))
      .map(async (relative) => {
        const file = path.join(root, relative)
        // A page taken from the live build is final already; its headers are made again below,
        // from its script hashes (not even read when the live build recorded them).
        if (options.reused?.has(relative)) {
          const scriptHashes =
            options.reusedScriptHashes?.[relative] ?? inlineScriptHashes(await readFile(file, 'utf8'))
          return { file, relative, scriptHashes, rewritten: undefined }
        }
        const exported = await readFile(file, 'utf8')
        // Next's chunks start after the first paint (defer-framework-scripts.ts); the CSP
        // below hashes the loader. The page's RSC payload file lets its inline copy go as well.
        const payloadFile = path.relative(root, payloadFileOf(root, file)).split(path.sep).join('/')
        const payload = fileSet.has(payloadFile)
          ? { url: encodeURI(`/${payloadFile}`), text: await readFile(path.join(root, payloadFile), 'utf8') }
          : undefined
        // Every page preloads the site font, the 404 page included (adaptive-font-preload.ts).
        const html = deferFrameworkScripts(preloadPageFonts(exported), payload)
        assertRewritten(relative, html, payload !== undefined)
        const rewritten = html === exported ? undefined : html
        return { file, relative, scriptHashes: inlineScriptHashes(html), rewritten }
      }),
  )
  // Written only once every page passed the check: a failed postbuild leaves Next's export as it was.
  for (const { file, rewritten } of pages) if (rewritten !== undefined) await writeFile(file, rewritten)
  // Old addresses: a page at each for hosts that redirect nothing (before `_headers`, which covers them).
  const { siteUrl, ...moved } = options.redirects ?? { siteUrl: '', pages: {}, redirects: [] }
  const movedPages = await writeRedirectPages(root, moved.redirects, siteUrl)
  await writeFile(
    path.join(root, '_headers'),
    formatHeadersFile(
      headerRules(
        [
          ...pages.map(({ relative, scriptHashes }) => ({ urlPath: urlPathOf(relative), scriptHashes })),
          ...movedPages,
        ],
        settings,
        { studioProjectId: options.studioProjectId },
      ),
    ),
  )
  await writeFile(path.join(root, '_redirects'), redirectsFile(files, moved.redirects))
  const compressed = await precompressSite(root, options.cacheDir, options.reused)
  // After the listings and copies above: nothing of the site names or serves it.
  await writeFile(
    path.join(root, PAGE_DOCUMENTS_FILE),
    JSON.stringify(options.pageDocuments ?? {}, null, 2) + '\n',
  )
  await writeFile(path.join(root, REDIRECTS_FILE), JSON.stringify(moved, null, 2) + '\n')
  const hashes = Object.fromEntries(
    pages.map(({ relative, scriptHashes }) => [relative, scriptHashes]).sort(),
  )
  await writeFile(path.join(root, SCRIPT_HASHES_FILE), JSON.stringify(hashes) + '\n')
  const info: BuildInfo = { id: newBuildId(), builtAt: new Date().toISOString() }
  await writeFile(path.join(root, BUILD_MARKER), JSON.stringify(info, null, 2) + '\n')
  return { info, renamed, pages: pages.length, compressed }
}
