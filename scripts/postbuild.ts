/**
 * Last step of `npm run build` (thin CLI over postbuild/index.ts): decodes
 * percent-encoded file names, writes a small page at each old case-study address,
 * `out/_headers` (security headers and a per-page Content-Security-Policy from site
 * settings) and `out/_redirects`, precompresses (brotli, gzip), writes each page's main
 * documents for the publish gate (`out/.page-documents.json`) and the old addresses
 * (`out/.redirects.json`), and marks the build complete with `out/.build.json`.
 * Usage: node scripts/postbuild.ts   (OUT_DIR overrides out/)
 * PREVIOUS_BUILD_DIR: the folder of the build that is live now (the publisher passes it),
 * whose `.redirects.json` is the history: a case study whose slug changed since keeps its
 * old address, redirected to the new one. Unset, or a build without that file: no history.
 * REUSED_FILES: a JSON list of the files the build took from the live build, final already.
 */
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { readRedirects } from '../lib/build-output.ts'
import { getSiteSettings } from '../lib/content/index.ts'
import { caseStudyPathsQuery } from '../lib/content/queries.ts'
import { runQuery, sourceFromEnv } from '../lib/content/source.ts'
import { caseStudyPageDocuments } from '../lib/page-documents.ts'
import { studioProjectFromEnv } from '../lib/studio.ts'
import { finalizeExport } from '../postbuild/index.ts'
import { caseStudyRedirects } from '../postbuild/redirects-file.ts'
import { SCRIPT_HASHES_FILE } from '../postbuild/security-headers.ts'

const root = path.resolve(process.env.OUT_DIR ?? 'out')
const started = performance.now()
// Keyed by content and settings, so it holds whatever the code: beside the build's other
// content-keyed caches, which a cold build (no .next/, as on CI) keeps.
const cacheDir = path.resolve('.cache/precompress')
// The same query the case study routes are generated from, with each case study's _id.
const caseStudies = await runQuery(caseStudyPathsQuery, {}, sourceFromEnv())
const previousDir = process.env.PREVIOUS_BUILD_DIR
const moved = caseStudyRedirects(
  caseStudies,
  previousDir ? await readRedirects(path.resolve(previousDir)) : null,
)
const settings = await getSiteSettings()
// Files the build took from the live build (scripts/build/reuse-pages.ts): final already.
const reused = process.env.REUSED_FILES
  ? new Set(JSON.parse(await readFile(process.env.REUSED_FILES, 'utf8')) as string[])
  : undefined
// The live build's pages' script hashes: the reused pages are its bytes, by the same code.
const reusedScriptHashes =
  reused && previousDir
    ? (JSON.parse(
        await readFile(path.join(path.resolve(previousDir), SCRIPT_HASHES_FILE), 'utf8').catch(() => '{}'),
      ) as Record<string, string[]>)
    : undefined
const result = await finalizeExport(root, settings, {
  reused,
  reusedScriptHashes,
  cacheDir,
  studioProjectId: studioProjectFromEnv()?.projectId,
  pageDocuments: caseStudyPageDocuments(caseStudies, moved.redirects),
  redirects: { ...moved, siteUrl: settings.siteUrl },
})
const { compressed } = result
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`
console.log(
  `postbuild: build ${result.info.id}: _headers for ${result.pages} pages, ${moved.redirects.length} old addresses redirected, ` +
    `${compressed.files} files precompressed, ${compressed.cached} from cache, ${compressed.reused} taken with their pages (${kib(compressed.rawBytes)} -> br ${kib(compressed.brotliBytes)}, gzip ${kib(compressed.gzipBytes)})` +
    (result.renamed.length ? `, decoded names: ${result.renamed.join(', ')}` : '') +
    ` in ${Math.round(performance.now() - started)} ms`,
)
