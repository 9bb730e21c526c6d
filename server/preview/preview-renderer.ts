/** How the preview process answers one editor's request, within the render limits of docs/architecture.md. */
import { AsyncLocalStorage } from 'node:async_hooks'
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { IncomingMessage, ServerResponse } from 'node:http'
import compression from 'compression'
import PQueue from 'p-queue'
import { BASE_HEADERS, contentSecurityPolicy, type IntegrationSettings } from '../../site-build/headers.ts'
import { recordDraftsRead, type DraftRead } from '../../lib/content/drafts-read.ts'
import type { Perspective } from '../../lib/content/source.ts'
import { PREVIEW_HEADERS } from './preview.ts'
import { answerFailureWith, failedRenderNotice } from './preview-render-failure.ts'
import { SessionQueue, type SessionQueueOptions } from './session-queue.ts'

export type NextHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>

/** Its types name Express's; it is plain Node middleware. */
const compress = compression({ threshold: 1024 }) as unknown as (
  req: IncomingMessage,
  res: ServerResponse,
  next: () => void,
) => void

/**
 * `handle` with answers compressed by the request's `Accept-Encoding` (brotli 4, else gzip), streamed as
 * Next flushes: the publisher's event loop then streams a sixth to a tenth of a page's 130-750 KB.
 */
export function compressed(handle: (req: IncomingMessage, res: ServerResponse) => unknown) {
  return (req: IncomingMessage, res: ServerResponse) => compress(req, res, () => void handle(req, res))
}

/** The page being rendered, for log lines written during its render. */
export const renderContext = new AsyncLocalStorage<{ path: string }>()

/**
 * Renders at a time, more waiting, places one session holds, ms to a notice page, ms to a runaway exit.
 * A core stays free for visitors; a seed page renders in about 0.1 s.
 */
export const DEFAULT_RENDER_LIMITS = {
  concurrency: Math.max(1, os.availableParallelism() - 1),
  queue: 16,
  perSession: 8,
  timeLimitMs: 20_000,
  hardLimitMs: 60_000,
}

export type RenderLimits = typeof DEFAULT_RENDER_LIMITS

/** COOKIE_NAME_PRERENDER_BYPASS in next/dist/server/api-utils. */
const DRAFT_MODE_COOKIE = '__prerender_bypass'

/** The preview process's exit code after a render that would not end. */
export const RUNAWAY_EXIT_CODE = 70

export function withoutCookie(header: string | undefined, name: string): string {
  return (header ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part && !part.startsWith(`${name}=`))
    .join('; ')
}

/** A Cookie header with Next's real draft-mode cookie in place of any copy sent. */
export function withDraftModeCookie(cookieHeader: string | undefined, modeId: string): string {
  const kept = withoutCookie(cookieHeader, DRAFT_MODE_COOKIE)
  return [kept, `${DRAFT_MODE_COOKIE}=${modeId}`].filter(Boolean).join('; ')
}

/**
 * The site's policy with the nonce for script hashes, hosts as the published `settings` name them (null:
 * none; a draft's host waits for a publish), and `imageOrigins` (`previewImageOrigins`) in `img-src`.
 * @throws Error (from `externalOrigin`) when a settings URL is neither https nor a path
 */
export function previewContentSecurityPolicy(
  nonce: string,
  settings: IntegrationSettings | null,
  studioOrigins: readonly string[],
  imageOrigins: readonly string[] = [],
): string {
  return contentSecurityPolicy(
    [`'nonce-${nonce}'`],
    settings ?? { bookingWidgetUrl: '/', contactWebhookUrl: '/' },
    { frameAncestors: [`'self'`, ...studioOrigins], extra: { 'img-src': [...imageOrigins] } },
  )
}

/** The session's tag, set by the publisher over any copy sent; taken off before Next. */
export const SESSION_HEADER = 'x-preview-session'

function takeSession(req: IncomingMessage): string {
  const tag = req.headers[SESSION_HEADER]
  delete req.headers[SESSION_HEADER]
  return typeof tag === 'string' ? tag : ''
}

// A notice names a path an editor typed.
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

/** A script-free page telling an editor why the preview did not render; `title` and `text` are plain. */
export function noticePage(title: string, text: string): string {
  return `<!doctype html><html lang="en-GB"><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><body style="font:1rem/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1.25rem"><h1 style="font-size:1.5rem">${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p><p><a href="">Try again</a></p></body></html>`
}

/** Drops Next's `x-nextjs-cache` (HIT/STALE): every preview answer is rendered for its request. */
function withoutCacheVerdict(res: ServerResponse): void {
  const setHeader = res.setHeader.bind(res)
  res.setHeader = (name: string, value: number | string | readonly string[]) =>
    name.toLowerCase() === 'x-nextjs-cache' ? res : setHeader(name, value)
}

/** `url` pointed at its public/ folder's index.html if any (Next serves exact paths only); query kept. */
export function withIndexFile(url: string, publicDir: string): string {
  const [pathname = '/', ...query] = url.split('?')
  if (pathname === '/' || pathname.includes('..')) return url
  let decoded: string
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    return url
  }
  const index = path.join(publicDir, decoded, 'index.html')
  if (!index.startsWith(publicDir + path.sep) || !existsSync(index)) return url
  return [`${pathname.replace(/\/?$/, '/')}index.html`, ...query].join('?')
}

const noticePolicy = (studioOrigins: readonly string[]) =>
  [
    `default-src 'none'`,
    `style-src 'unsafe-inline'`,
    ['frame-ancestors', `'self'`, ...studioOrigins].join(' '),
  ].join('; ')

/** Headers of a preview answer that is not a render's: base, preview, and a policy where nothing runs. */
export function noticeHeaders(studioOrigins: readonly string[]): Record<string, string> {
  return { ...BASE_HEADERS, ...PREVIEW_HEADERS, 'Content-Security-Policy': noticePolicy(studioOrigins) }
}

/**
 * `media` (preview-media.ts) and `staticFiles`, the build's files by their path under `/_next/static/` (a page asks for about ten), answer outside the
 * renders' places; `settings` is asked for 'published' only, a rejection giving a policy without other
 * hosts; `publicDir`'s folders' index.html answer for them (the booking stand-in), as on the live site.
 */
export type PreviewRendererOptions = {
  handler: NextHandler
  modeId: string
  studioOrigins: readonly string[]
  imageOrigins?: readonly string[]
  media?: { answer(req: IncomingMessage, res: ServerResponse): Promise<boolean> }
  settings: (perspective: Perspective) => Promise<IntegrationSettings>
  limits?: Partial<RenderLimits>
  onRunaway: (path: string) => void
  onError: (path: string, error: unknown) => void
  publicDir?: string
  staticFiles?: ReadonlySet<string>
}

const STATIC_PREFIX = '/_next/static/'

export class PreviewRenderer {
  readonly limits: RenderLimits
  #options: PreviewRendererOptions
  #queue: PQueue<SessionQueue, SessionQueueOptions>
  #held = new Map<string, number>()
  #staticFiles: ReadonlySet<string>

  constructor(options: PreviewRendererOptions) {
    this.#options = options
    this.limits = { ...DEFAULT_RENDER_LIMITS, ...options.limits }
    this.#queue = new PQueue({ concurrency: this.limits.concurrency, queueClass: SessionQueue })
    this.#staticFiles = options.staticFiles ?? new Set()
  }

  #isStaticFile(path: string): boolean {
    return path.startsWith(STATIC_PREFIX) && this.#staticFiles.has(path.slice(STATIC_PREFIX.length))
  }

  get load(): { running: number; waiting: number } {
    return { running: this.#queue.pending, waiting: this.#queue.size }
  }

  /** Answers one request; never throws (a failure is the editor's page and `onError`'s). */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/'
    const session = takeSession(req)
    // Next may still write after a time limit answered; a write after the end is dropped.
    res.on('error', () => {})
    const answer = (status: number, title: string, text: string, retryAfter?: number) => {
      if (res.headersSent) return
      if (!res.hasHeader('Content-Security-Policy'))
        res.setHeader('Content-Security-Policy', noticePolicy(this.#options.studioOrigins))
      res.writeHead(status, {
        'Content-Type': 'text/html; charset=utf-8',
        ...(retryAfter ? { 'Retry-After': String(retryAfter) } : {}),
      })
      res.end(noticePage(title, text))
    }
    for (const [name, value] of Object.entries({ ...BASE_HEADERS, ...PREVIEW_HEADERS }))
      res.setHeader(name, value)
    if (await this.#options.media?.answer(req, res)) return
    if (this.#isStaticFile(path)) {
      await this.#options.handler(req, res).catch((error: unknown) => {
        this.#options.onError(path, error)
        answer(500, 'The preview could not send this file', 'The error is in the publisher log.')
      })
      return
    }

    // The place is taken before anything is awaited, so a burst is held to the same bounds.
    const held = this.#held.get(session) ?? 0
    if (held >= this.limits.perSession) {
      answer(
        503,
        'The preview is busy with your pages',
        `${held} pages of this preview are rendering or waiting. Try again in a few seconds.`,
        5,
      )
      return
    }
    if (this.#queue.size >= this.limits.queue) {
      answer(
        503,
        'The preview is busy',
        `${this.#queue.pending} pages are rendering and ${this.#queue.size} are waiting. Try again in a few seconds.`,
        5,
      )
      return
    }
    this.#held.set(session, held + 1)
    const seconds = Math.round(this.limits.timeLimitMs / 1000)
    // Answered by the time limit: the render still holds its place until it ends.
    let answeredLate = false
    const late = setTimeout(() => {
      answeredLate = !res.headersSent
      answer(
        503,
        'This page took too long to render',
        `The preview stopped waiting for ${path} after ${seconds} s. A very large draft can do this: shorten it, or try again.`,
        5,
      )
    }, this.limits.timeLimitMs)
    const runaway = setTimeout(() => this.#options.onRunaway(path), this.limits.hardLimitMs)
    // Answered by the time limit, or left by its editor, while it waits: it leaves the queue.
    let started = false
    let closed = false
    const gone = new AbortController()
    const drafts = new Map<string, DraftRead>()
    res.once('close', () => {
      closed = true
      if (!started) gone.abort()
    })
    try {
      await this.#queue.add(
        async () => {
          started = true
          const policy = await this.#policy(path)
          // Answered by the time limit, or left, while the settings were read: not rendered.
          if (res.writableEnded || closed) return
          req.headers.cookie = withDraftModeCookie(req.headers.cookie, this.#options.modeId)
          withoutCacheVerdict(res)
          answerFailureWith(res, () => noticePage(...failedRenderNotice(path, [...drafts.values()])))
          if (this.#options.publicDir) req.url = withIndexFile(req.url ?? '/', this.#options.publicDir)
          // Next takes its scripts' nonce from the request's policy.
          req.headers['content-security-policy'] = policy
          res.setHeader('Content-Security-Policy', policy)
          // Next's handler can hang after a client left; a late-answered render still works.
          const ended = new Promise<void>((resolve) =>
            res.once('close', () => {
              if (!answeredLate) resolve()
            }),
          )
          await renderContext.run({ path }, () =>
            recordDraftsRead(drafts, () => Promise.race([this.#options.handler(req, res), ended])),
          )
        },
        { session, signal: gone.signal },
      )
    } catch (error) {
      if (!gone.signal.aborted) {
        this.#options.onError(path, error)
        answer(500, 'The preview could not render this page', 'The error is in the publisher log.')
      }
    } finally {
      clearTimeout(late)
      clearTimeout(runaway)
      const left = (this.#held.get(session) ?? 1) - 1
      if (left > 0) this.#held.set(session, left)
      else this.#held.delete(session)
    }
  }

  async #policy(path: string): Promise<string> {
    const { studioOrigins, settings, imageOrigins } = this.#options
    const nonce = randomBytes(18).toString('base64')
    try {
      return previewContentSecurityPolicy(nonce, await settings('published'), studioOrigins, imageOrigins)
    } catch (error) {
      this.#options.onError(path, error)
      return previewContentSecurityPolicy(nonce, null, studioOrigins, imageOrigins)
    }
  }
}
