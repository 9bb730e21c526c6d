/** The preview server's build (`.next-preview/`, made again when the code changed) and its draft-mode key. */
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Logger } from 'pino'
import { codeVersion } from '../../lib/code-version.ts'
import { runBuildCommand } from '../publishing/build-command.ts'

export const PREVIEW_DIST_DIR = '.next-preview'

const BUILD_ARGV = ['npm', 'run', 'build:preview']

const VERSION_FILE = 'code-version.txt'

/** Records the code version a preview build in `root` succeeded from. */
export async function markPreviewBuild(root: string, version: string): Promise<void> {
  await writeFile(path.join(root, PREVIEW_DIST_DIR, VERSION_FILE), `${version}\n`)
}

async function builtVersion(root: string): Promise<string | null> {
  return readFile(path.join(root, PREVIEW_DIST_DIR, VERSION_FILE), 'utf8').then(
    (text) => text.trim(),
    () => null,
  )
}

/** The `__prerender_bypass` cookie's value; throws naming the file and field when Next's build lacks them. */
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
 * Builds the preview when missing or older than the code (`signal` kills it); ms it took, 0 if none.
 * @throws Error with the build's reason when it fails, or when it recorded no version
 */
export async function ensurePreviewBuild(root: string, log: Logger, signal?: AbortSignal): Promise<number> {
  const version = await codeVersion(root)
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
