/** The build's last step, in the build's own process: postbuild/ on the export, given the live build and the pages taken from it. */
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { readRedirects } from '../lib/build-output.ts'
import { getSiteSettings } from '../lib/content/index.ts'
import { caseStudyPathsQuery } from '../lib/content/queries.ts'
import { runQuery, type ContentSource } from '../lib/content/source.ts'
import { caseStudyPageDocuments } from '../lib/page-documents.ts'
import { studioProjectFromEnv } from '../lib/studio.ts'
import { finalizeExport } from './finalize.ts'
import { caseStudyRedirects } from './redirects-file.ts'
import { SCRIPT_HASHES_FILE } from './headers.ts'

/**
 * @param outDir the export to finish
 * @param source the content the export was rendered from (the build's snapshot)
 * @param previousDir the live build, whose old addresses still redirect, or null
 * @param reused the export's files taken from the live build (their script hashes hold)
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
      ? (JSON.parse(
          await readFile(path.join(previousDir, SCRIPT_HASHES_FILE), 'utf8').catch(() => '{}'),
        ) as Record<string, string[]>)
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
