/**
 * The build of editors' preview: the same Next app as the static export, built once per
 * code version as a Next server (`NEXT_TARGET=preview-server`, into `.next-preview/`),
 * which the preview process runs (server/preview-process.ts, server/preview-child.ts).
 * - `previewCodeVersion`: what the build depends on (the code, not the content); the
 *   build records it (`markPreviewBuild`), and `npm start` builds again only when it changed
 *   (`ensurePreviewBuild`).
 * - `previewModeId`: the build's draft-mode key, which only the preview process knows.
 */
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Logger } from 'pino'
import { codeVersion } from '../lib/code-version.ts'
import { runBuildCommand } from './build-command.ts'

/** Where the preview server's build goes (next.config.mjs `PREVIEW_SERVER_DIST_DIR`). */
export const PREVIEW_DIST_DIR = '.next-preview'

/** The preview server's build command (scripts/build-preview-server.ts). */
const BUILD_ARGV = ['npm', 'run', 'build:preview']

/** The file in the build that records which code version it was built from. */
const VERSION_FILE = 'code-version.txt'

/**
 * The code version a preview build depends on (lib/code-version.ts): content and
 * settings are read per request, so only the code counts.
 */
export const previewCodeVersion = codeVersion

/**
 * Records that the preview build in `root` was made from a code version (after a build
 * succeeded: `npm run build:preview`).
 */
export async function markPreviewBuild(root: string, version: string): Promise<void> {
  await writeFile(path.join(root, PREVIEW_DIST_DIR, VERSION_FILE), `${version}\n`)
}

/** The code version the preview build in `root` was made from, or null when there is none. */
async function builtVersion(root: string): Promise<string | null> {
  return readFile(path.join(root, PREVIEW_DIST_DIR, VERSION_FILE), 'utf8').then(
    (text) => text.trim(),
    () => null,
  )
}

/**
 * Next's draft-mode key of a build (the `__prerender_bypass` cookie's value), from its
 * prerender manifest.
 * @throws Error naming the file and field when Next's build no longer has them
 */
export async function previewModeId(root: string): Promise<string> {
  const file = path.join(root, PREVIEW_DIST_DIR, 'prerender-manifest.json')
  const manifest = JSON.parse(await readFile(file, 'utf8')) as { preview?: { previewModeId?: unknown } }
  const id = manifest.preview?.previewModeId
  if (typeof id !== 'string' || id.length < 16)
    throw new Error(
      `preview server: ${file} has no preview.previewModeId; Next's draft mode cannot be turned on without it`,
    )
  return id
}

/**
 * Builds the preview when it is missing or older than the code (`previewCodeVersion`).
 * @param signal aborting kills a running build (shutdown)
 * @returns how long the build took in ms, 0 when none was needed
 * @throws Error with the build's reason when it fails, or when it recorded no version
 */
export async function ensurePreviewBuild(root: string, log: Logger, signal?: AbortSignal): Promise<number> {
  const version = await previewCodeVersion(root)
  if ((await builtVersion(root)) === version) return 0
  log.info({ event: 'preview.build' }, 'preview: building (its build is missing or older than the code)')
  const outcome = await runBuildCommand({ argv: BUILD_ARGV, cwd: root, signal })
  if (!outcome.ok) throw new Error(`the preview's build failed: ${outcome.error}`)
  if ((await builtVersion(root)) === null)
    throw new Error(
      `\`${BUILD_ARGV.join(' ')}\` succeeded but recorded no code version in ${PREVIEW_DIST_DIR}/${VERSION_FILE}`,
    )
  return outcome.durationMs
}
