/**
 * Editors' preview, rendered on request: the same Next app as the static export, built
 * once per code version as a server (`NEXT_TARGET=preview-server`, into `.next-preview/`)
 * and run by Next's request handler inside the publisher's own process. The publisher
 * hands it only requests that carry an open preview session (server/app.ts), in Next's
 * draft mode, so each page renders from drafts (or the perspective Presentation chose) at
 * request time; visitors never reach it, and it listens on no port of its own.
 *
 * - `previewCodeVersion`: what the build depends on (the code, not the content); the
 *   build records it, and `npm start` builds again only when it changed.
 * - `PreviewServer.start`: builds when needed, then loads Next's handler.
 * - `PreviewServer.handle`: draft mode on (Next's bypass cookie, which only this process
 *   knows), a fresh script nonce for the page's Content-Security-Policy, the request handed over.
 */
import { randomBytes } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import path from 'node:path'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Logger } from 'pino'
import { BASE_HEADERS } from '../lib/build-output.ts'
import { codeVersion } from '../lib/code-version.ts'
import { runBuildCommand } from './build-command.ts'
import { PREVIEW_HEADERS } from './preview.ts'

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
async function previewModeId(root: string): Promise<string> {
  const file = path.join(root, PREVIEW_DIST_DIR, 'prerender-manifest.json')
  const manifest = JSON.parse(await readFile(file, 'utf8')) as { preview?: { previewModeId?: unknown } }
  const id = manifest.preview?.previewModeId
  if (typeof id !== 'string' || id.length < 16)
    throw new Error(
      `preview server: ${file} has no preview.previewModeId; Next's draft mode cannot be turned on without it`,
    )
  return id
}

/** Next's draft-mode cookie (COOKIE_NAME_PRERENDER_BYPASS in next/dist/server/api-utils). */
const DRAFT_MODE_COOKIE = '__prerender_bypass'

/**
 * A request's Cookie header without Next's draft-mode cookie, plus the real one: a
 * visitor's copy of it (or any other value) never reaches Next.
 */
export function withDraftModeCookie(cookieHeader: string | undefined, modeId: string): string {
  const kept = (cookieHeader ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part && !part.startsWith(`${DRAFT_MODE_COOKIE}=`))
  return [...kept, `${DRAFT_MODE_COOKIE}=${modeId}`].join('; ')
}

/**
 * The Content-Security-Policy of a preview page. Scripts run only with this request's
 * nonce, or when a script that has it loads them (`'strict-dynamic'`): Next puts the nonce
 * on its own scripts, the site on its boot script. Unlike visitors' pages, inline styles
 * are allowed (the visual editing overlays inject them), other https origins may be
 * framed, shown or called (a draft may name a new booking widget), and this site and the
 * Studio origins may frame the page (Presentation).
 * @param nonce base64, fresh for each response
 * @param studioOrigins STUDIO_ORIGINS
 */
export function previewContentSecurityPolicy(nonce: string, studioOrigins: readonly string[]): string {
  return [
    `default-src 'self'`,
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    `style-src 'self' 'unsafe-inline'`,
    `img-src 'self' data: blob: https:`,
    `font-src 'self'`,
    `connect-src 'self' https:`,
    `frame-src 'self' https:`,
    `form-action 'self'`,
    `base-uri 'none'`,
    `object-src 'none'`,
    ['frame-ancestors', `'self'`, ...studioOrigins].join(' '),
  ].join('; ')
}

/** What the publisher needs of a preview server: to hand it a request (tests give a stand-in). */
export type PreviewHandler = Pick<PreviewServer, 'handle'>

/** Next's request handler, as `next()` returns it. */
type NextHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>

export type PreviewServerOptions = {
  /** The repository: the app's code, public/ and the build. */
  root: string
  log: Logger
  /** STUDIO_ORIGINS: they may frame preview pages (Presentation). */
  studioOrigins: readonly string[]
  /** Aborting kills a running build (shutdown). */
  signal?: AbortSignal
}

/** See the module comment. */
export class PreviewServer {
  #handler: NextHandler
  #modeId: string
  #studioOrigins: readonly string[]
  #close: () => Promise<void>

  private constructor(
    handler: NextHandler,
    modeId: string,
    studioOrigins: readonly string[],
    close: () => Promise<void>,
  ) {
    this.#handler = handler
    this.#modeId = modeId
    this.#studioOrigins = studioOrigins
    this.#close = close
  }

  /**
   * Builds the preview server when it is missing or older than the code
   * (`previewCodeVersion`), then loads Next's request handler in this process.
   * @returns the server, and how long the build (0 when none was needed) and the load took
   * @throws Error with the build's reason when the build fails, or when Next's build lacks
   *   what draft mode needs
   */
  static async start(
    options: PreviewServerOptions,
  ): Promise<{ server: PreviewServer; buildMs: number; loadMs: number }> {
    const { root, log } = options
    const version = await previewCodeVersion(root)
    let buildMs = 0
    if ((await builtVersion(root)) !== version) {
      log.info(
        { event: 'preview.build' },
        'preview server: building (its build is missing or older than the code)',
      )
      const outcome = await runBuildCommand({ argv: BUILD_ARGV, cwd: root, signal: options.signal })
      if (!outcome.ok) throw new Error(`the preview server's build failed: ${outcome.error}`)
      if ((await builtVersion(root)) === null)
        throw new Error(
          `\`${BUILD_ARGV.join(' ')}\` succeeded but recorded no code version in ${PREVIEW_DIST_DIR}/${VERSION_FILE}`,
        )
      buildMs = outcome.durationMs
    }
    const loading = performance.now()
    const modeId = await previewModeId(root)
    const { default: next } = await import('next')
    // The production-server phase: next.config.mjs reads the preview server's build from it.
    const app = next({ dev: false, dir: root, quiet: true })
    await app.prepare()
    const server = new PreviewServer(app.getRequestHandler(), modeId, options.studioOrigins, () =>
      app.close(),
    )
    return { server, buildMs, loadMs: Math.round(performance.now() - loading) }
  }

  /**
   * Hands a preview request to Next: draft mode on, a nonce for its scripts, the preview's
   * headers. The reply is hijacked: Next writes the response.
   */
  async handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const nonce = randomBytes(18).toString('base64')
    const policy = previewContentSecurityPolicy(nonce, this.#studioOrigins)
    const raw = request.raw
    raw.headers.cookie = withDraftModeCookie(raw.headers.cookie, this.#modeId)
    // Next takes the nonce for its scripts from the request's policy (as a proxy would set it).
    raw.headers['content-security-policy'] = policy
    reply.hijack()
    const response = reply.raw
    for (const [name, value] of Object.entries({ ...BASE_HEADERS, ...PREVIEW_HEADERS }))
      response.setHeader(name, value)
    response.setHeader('Content-Security-Policy', policy)
    try {
      await this.#handler(raw, response)
    } catch (error) {
      request.log.error({ event: 'preview.error', error: (error as Error).message }, 'preview: render failed')
      if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain' })
      response.end('The preview could not render this page: see the publisher log.')
    }
    return reply
  }

  /** Closes Next's server (shutdown). */
  close(): Promise<void> {
    return this.#close()
  }
}
