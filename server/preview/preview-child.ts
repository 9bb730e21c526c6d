/** The preview process (docs/architecture.md): PREVIEW_SOCKET, PREVIEW_STUDIO_ORIGINS, PREVIEW_LIMITS (JSON), never a secret. */
import { createServer, request } from 'node:http'
import { rm } from 'node:fs/promises'
import path from 'node:path'
// CommonJS built by a bundler: Node finds no named exports in it.
import nextEnv from '@next/env'
import { pino } from 'pino'
import { listFiles } from '../../lib/build-output.ts'
import { getSiteSettings } from '../../lib/content/index.ts'
import { previewImageOrigins } from '../../lib/content/preview-images.ts'
import { sourceFromEnv } from '../../lib/content/source.ts'
import { PREVIEW_DIST_DIR, previewModeId } from './preview-build.ts'
import { consoleToLog, errorFields } from './preview-console.ts'
import { refuseSecrets } from './preview-env.ts'
import { PreviewMedia } from './preview-media.ts'
import { compressed, PreviewRenderer, RUNAWAY_EXIT_CODE, type RenderLimits } from './preview-renderer.ts'

// Synchronous: a line written just before the process exits is not lost.
const log = pino({ base: { proc: 'preview' } }, pino.destination({ dest: 1, sync: true }))

// Next's own output (a render error, a warning) and any library's, as JSON lines naming the page.
consoleToLog(log)

/** Renders the home page once before saying ready, so the first editor does not pay for loading; resolves its status or error message. */
function warmUp(socket: string): Promise<number | string> {
  return new Promise((resolve) => {
    const asked = request({ socketPath: socket, path: '/', headers: { host: 'localhost' } }, (answer) => {
      answer.resume()
      answer.on('end', () => resolve(answer.statusCode ?? 0))
    })
    asked.on('error', (error) => resolve(error.message))
    asked.end()
  })
}

async function main() {
  const started = performance.now()
  const root = process.cwd()
  const socket = process.env.PREVIEW_SOCKET
  if (!socket) throw new Error('preview process: PREVIEW_SOCKET (the Unix socket to listen on) is not set')
  // Loaded here (Next reuses the result) so a secret in a .env* file is refused before anything runs.
  nextEnv.loadEnvConfig(root)
  refuseSecrets("after Next's .env* files were loaded")
  const studioOrigins = JSON.parse(process.env.PREVIEW_STUDIO_ORIGINS ?? '[]') as string[]
  const limits = JSON.parse(process.env.PREVIEW_LIMITS ?? '{}') as Partial<RenderLimits>
  const modeId = await previewModeId(root)
  const { default: next } = await import('next')
  // The production-server phase: next.config.mjs reads the preview build from it.
  const app = next({ dev: false, dir: root })
  await app.prepare()
  refuseSecrets('after Next started (its config loaded)')
  const source = sourceFromEnv()
  const publicDir = path.join(root, 'public')
  const renderer = new PreviewRenderer({
    handler: app.getRequestHandler(),
    modeId,
    studioOrigins,
    imageOrigins: previewImageOrigins(source),
    media: new PreviewMedia({
      source,
      publicDir,
      onError: (path, error) =>
        log.warn({ event: 'preview.image-refused', path, ...errorFields(error) }, 'preview: image not sent'),
    }),
    limits,
    publicDir,
    staticFiles: new Set(await listFiles(path.join(root, PREVIEW_DIST_DIR, 'static'))),
    settings: (perspective) => getSiteSettings({ ...source, perspective, preview: true }),
    onRunaway: (path) => {
      log.error(
        { event: 'preview.runaway', path, hardLimitMs: renderer.limits.hardLimitMs },
        `preview: the render of ${path} ran past ${renderer.limits.hardLimitMs} ms; the process ends and starts again`,
      )
      process.exit(RUNAWAY_EXIT_CODE)
    },
    onError: (path, error) =>
      log.error({ event: 'preview.render-error', path, ...errorFields(error) }, 'preview: render failed'),
  })
  await rm(socket, { force: true })
  // Compressed here, not by the publisher, which streams the bytes through visitors' event loop.
  const server = createServer(compressed((req, res) => renderer.handle(req, res)))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(socket, resolve)
  })
  const warm = await warmUp(socket)
  const loadMs = Math.round(performance.now() - started)
  log.info(
    { event: 'preview.listening', loadMs, warmUp: warm },
    `preview: rendering on its socket (loaded, and the home page rendered once, in ${loadMs} ms)`,
  )
  process.send?.({ type: 'ready', loadMs })
  process.once('SIGTERM', () => {
    server.close(() => process.exit(0))
    setTimeout(() => process.exit(0), 5000).unref()
  })
}

// The publisher is gone (ended, crashed or killed): so is this process.
process.on('disconnect', () => process.exit(0))
main().catch((error: unknown) => {
  log.fatal({ event: 'preview.failed', ...errorFields(error) }, (error as Error).message)
  process.exit(1)
})
