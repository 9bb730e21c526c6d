/** The build's last step: turns Next's export in `out/` into a finished build, in place (docs/architecture.md). */
import { randomBytes } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import {
  BUILD_MARKER,
  listFiles,
  readBuildJson,
  readRedirects,
  REDIRECTS_FILE,
  urlPathOf,
  type BuildInfo,
  type RedirectsManifest,
} from '../lib/build-output.ts'
import { getSiteSettings } from '../lib/content/index.ts'
import { caseStudyPathsQuery } from '../lib/content/queries.ts'
import { runQuery, type ContentSource } from '../lib/content/source.ts'
import { caseStudyPageDocuments, PAGE_DOCUMENTS_FILE, type PageDocuments } from '../lib/page-documents.ts'
import { studioProjectFromEnv } from '../lib/studio.ts'
import { preloadPageFonts } from './adaptive-font-preload.ts'
import { decodeFileNames } from './decode-file-names.ts'
import { deferFrameworkScripts } from './defer-framework-scripts.ts'
import { assertRewritten, payloadFileOf } from './next-export-shape.ts'
import { precompressSite } from './precompress.ts'
import { caseStudyRedirects, redirectsFile, writeRedirectPages } from './redirects-file.ts'
import {
  formatHeadersFile,
  headerRules,
  inlineScriptHashes,
  SCRIPT_HASHES_FILE,
  type IntegrationSettings,
} from './headers.ts'

/** A sortable, unique build id: UTC time to the millisecond and 4 random hex digits, e.g. `20261122-183012-345-a3f9`. */
export function newBuildId(now = new Date()): string {
  const iso = now.toISOString() // 2026-11-22T18:30:12.345Z
  const stamp = `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}-${iso.slice(20, 23)}`
  return `${stamp}-${randomBytes(2).toString('hex')}`
}

const writeJson = (file: string, value: unknown, indent?: number) =>
  writeFile(file, JSON.stringify(value, null, indent) + '\n')

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
) {
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
        return {
          file,
          relative,
          scriptHashes: inlineScriptHashes(html),
          rewritten: html === exported ? undefined : html,
        }
      }),
  )
  // Written only once every page passed the check: a failed build leaves Next's export as it was.
  for (const { file, rewritten } of pages) if (rewritten !== undefined) await writeFile(file, rewritten)
  // Before `_headers`, which covers these pages.
  const { siteUrl, ...moved } = options.redirects ?? { siteUrl: '', pages: {}, redirects: [] }
  const movedPages = await writeRedirectPages(root, moved.redirects, siteUrl)
  const htmlPages = pages.map(({ relative, scriptHashes }) => ({
    urlPath: urlPathOf(relative),
    scriptHashes,
  }))
  const rules = headerRules([...htmlPages, ...movedPages], settings, {
    studioProjectId: options.studioProjectId,
  })
  await writeFile(path.join(root, '_headers'), formatHeadersFile(rules))
  await writeFile(path.join(root, '_redirects'), redirectsFile(files, moved.redirects))
  const compressed = await precompressSite(root, options.cacheDir, options.reused)
  // After the listings and copies above: nothing of the site names or serves these.
  await writeJson(path.join(root, PAGE_DOCUMENTS_FILE), options.pageDocuments ?? {}, 2)
  await writeJson(path.join(root, REDIRECTS_FILE), moved, 2)
  const hashes = pages.map(({ relative, scriptHashes }) => [relative, scriptHashes]).sort()
  await writeJson(path.join(root, SCRIPT_HASHES_FILE), Object.fromEntries(hashes))
  const info: BuildInfo = { id: newBuildId(), builtAt: new Date().toISOString() }
  await writeJson(path.join(root, BUILD_MARKER), info, 2)
  return { info, renamed, pages: pages.length, compressed }
}

/**
 * `finalizeExport` in the build: `source` is the content the export was rendered from, `previousDir`
 * the live build (its old addresses still redirect) or null, `reused` the files taken from it.
 * @returns the line the build prints
 */
export async function postbuildStep(
  outDir: string,
  source: ContentSource,
  previousDir: string | null,
  reused?: string[],
  env: Record<string, string | undefined> = process.env,
): Promise<string> {
  const started = performance.now()
  const caseStudies = await runQuery(caseStudyPathsQuery, {}, source)
  const moved = caseStudyRedirects(caseStudies, previousDir ? await readRedirects(previousDir) : null)
  const settings = await getSiteSettings(source)
  const reusedScriptHashes =
    reused && previousDir
      ? (((await readBuildJson(previousDir, SCRIPT_HASHES_FILE)) ?? {}) as Record<string, string[]>)
      : undefined
  const result = await finalizeExport(outDir, settings, {
    reused: reused && new Set(reused),
    reusedScriptHashes,
    // Keyed by content, not code: outside .next/, so a cold build keeps it.
    cacheDir: path.resolve('.cache/precompress'),
    studioProjectId: studioProjectFromEnv(env)?.projectId,
    pageDocuments: caseStudyPageDocuments(caseStudies, moved.redirects),
    redirects: { ...moved, siteUrl: settings.siteUrl },
  })
  const { compressed } = result
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`
  return (
    `postbuild: build ${result.info.id}: _headers for ${result.pages} pages, ${moved.redirects.length} old addresses redirected, ` +
    `${compressed.files} files precompressed, ${compressed.cached} from cache, ${compressed.reused} taken with their pages (${kib(compressed.rawBytes)} -> br ${kib(compressed.brotliBytes)}, gzip ${kib(compressed.gzipBytes)})` +
    (result.renamed.length ? `, decoded names: ${result.renamed.join(', ')}` : '') +
    ` in ${Math.round(performance.now() - started)} ms`
  )
}
