/** The postbuild: turns Next's export in `out/` into a finished build, in place (docs/architecture.md). */
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
import { formatHeadersFile, headerRules, inlineScriptHashes, SCRIPT_HASHES_FILE } from './headers.ts'
import type { IntegrationSettings } from './headers.ts'

/** A sortable, unique build id: UTC time to the millisecond and 4 random hex digits, e.g. `20261122-183012-345-a3f9`. */
export function newBuildId(now = new Date()): string {
  const iso = now.toISOString() // 2026-11-22T18:30:12.345Z
  const stamp = `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}-${iso.slice(20, 23)}`
  return `${stamp}-${randomBytes(2).toString('hex')}`
}

export type FinalizeResult = {
  info: BuildInfo
  renamed: string[]
  pages: number
  compressed: PrecompressResult
}

/**
 * Finalizes an export in place: decodes file names, rewrites every page, writes the pages at old
 * addresses, `_headers`, `_redirects`, the compressed copies, the dot files, and `.build.json` last.
 * `reused` files come from the live build, final already (headers made from `reusedScriptHashes`).
 * @throws Error when there is no index.html or `assertRewritten` fails; no marker is written then
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
        // A page taken from the live build is final already: only its script hashes are needed.
        if (options.reused?.has(relative)) {
          const scriptHashes =
            options.reusedScriptHashes?.[relative] ?? inlineScriptHashes(await readFile(file, 'utf8'))
          return { file, relative, scriptHashes, rewritten: undefined }
        }
        const exported = await readFile(file, 'utf8')
        const payloadFile = path.relative(root, payloadFileOf(root, file)).split(path.sep).join('/')
        const payload = fileSet.has(payloadFile)
          ? { url: encodeURI(`/${payloadFile}`), text: await readFile(path.join(root, payloadFile), 'utf8') }
          : undefined
        const html = deferFrameworkScripts(preloadPageFonts(exported), payload)
        assertRewritten(relative, html, payload !== undefined)
        const rewritten = html === exported ? undefined : html
        return { file, relative, scriptHashes: inlineScriptHashes(html), rewritten }
      }),
  )
  // Written only once every page passed the check: a failed postbuild leaves Next's export as it was.
  for (const { file, rewritten } of pages) if (rewritten !== undefined) await writeFile(file, rewritten)
  // Before `_headers`, which covers these pages.
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
  // After the listings and copies above: nothing of the site names or serves these.
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
