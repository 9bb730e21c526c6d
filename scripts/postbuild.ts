/** The build's last step: postbuild/ on out/ (OUT_DIR), given the live build (PREVIOUS_BUILD_DIR) and the files taken from it. */
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
// Keyed by content, not code: outside .next/, so a cold build keeps it.
const cacheDir = path.resolve('.cache/precompress')
const caseStudies = await runQuery(caseStudyPathsQuery, {}, sourceFromEnv())
const previousDir = process.env.PREVIOUS_BUILD_DIR
const moved = caseStudyRedirects(
  caseStudies,
  previousDir ? await readRedirects(path.resolve(previousDir)) : null,
)
const settings = await getSiteSettings()
const reused = process.env.REUSED_FILES
  ? new Set(JSON.parse(await readFile(process.env.REUSED_FILES, 'utf8')) as string[])
  : undefined
// Reused pages are the live build's bytes: its script hashes hold for them.
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
