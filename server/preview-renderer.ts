/**
 * How the preview process (server/preview-child.ts) answers one editor's request: Next's
 * draft mode turned on, a Content-Security-Policy with a fresh script nonce that names only
 * the hosts the (validated) published settings name, the preview's headers, and limits, so
 * that one heavy or hostile draft costs its editor a clear page and never the process:
 * - at most `concurrency` renders at a time, at most `queue` more waiting, and at most
 *   `perSession` of one editor's session rendering and waiting; beyond either the answer
 *   is 503 at once. The place is taken when the request arrives, before anything is
 *   awaited, so a burst that arrives at once is held to the same bounds;
 * - sessions take turns (server/session-queue.ts): an editor's page waits for at most one
 *   render of each other session, however many that session asked for;
 * - a request not answered within `timeLimitMs` of its arrival (waiting and the settings'
 *   read included) gets a page saying so; a render goes on to its end, holding its place,
 *   so slow renders cannot pile up, and a request still waiting leaves the queue;
 * - a request still at work `hardLimitMs` after its arrival calls `onRunaway`: the process
 *   ends, and the publisher starts a fresh one.
 * Which session a request is from is the publisher's to say (`SESSION_HEADER`); nothing
 * else reaches this process's socket.
 * Every render runs inside `renderContext`, so what it logs names the page (preview-child.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { IncomingMessage, ServerResponse } from 'node:http'
import PQueue from 'p-queue'
import { BASE_HEADERS } from '../lib/build-output.ts'
import { contentSecurityPolicy, type IntegrationSettings } from '../lib/content-security-policy.ts'
import { recordDraftsRead, type DraftRead } from '../lib/content/drafts-read.ts'
import type { Perspective } from '../lib/content/source.ts'
import { PREVIEW_HEADERS } from './preview.ts'
import { answerFailureWith, failedRenderNotice } from './preview-render-failure.ts'
import { SessionQueue, type SessionQueueOptions } from './session-queue.ts'

/** Next's request handler, as `next().getRequestHandler()` returns it. */
export type NextHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>

/** The page being rendered, for log lines written during its render. */
export const renderContext = new AsyncLocalStorage<{ path: string }>()

/** What one preview process may spend; see the module comment. */
export type RenderLimits = {
  concurrency: number
  queue: number
  perSession: number
  timeLimitMs: number
  hardLimitMs: number
}

/**
 * Renders at a time: every core but one, so the publisher always has a core for visitors
 * (one on the 2-core machine this runs on); sixteen waiting (an editor's Presentation tab
 * asks for a page and its RSC payload at once); one session holds at most eight places,
 * rendering and waiting, so another editor always finds one; 20 s is far beyond any page of the seed (about
 * 0.1 s), and a minute is a render that will not end.
 */
export const DEFAULT_RENDER_LIMITS: RenderLimits = {
  concurrency: Math.max(1, os.availableParallelism() - 1),
  queue: 16,
  perSession: 8,
  timeLimitMs: 20_000,
  hardLimitMs: 60_000,
}

/** Next's draft-mode cookie (COOKIE_NAME_PRERENDER_BYPASS in next/dist/server/api-utils). */
const DRAFT_MODE_COOKIE = '__prerender_bypass'

/** Exit code of a preview process that ended because a render would not end (the publisher restarts it). */
export const RUNAWAY_EXIT_CODE = 70

/** A Cookie header without one cookie, however often and wherever it is written (by name). */
export function withoutCookie(header: string | undefined, name: string): string {
  return (header ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part && !part.startsWith(`${name}=`))
    .join('; ')
}

/**
 * A request's Cookie header without Next's draft-mode cookie, plus the real one: a
 * visitor's copy of it (or any other value) never reaches Next.
 */
export function withDraftModeCookie(cookieHeader: string | undefined, modeId: string): string {
  const kept = withoutCookie(cookieHeader, DRAFT_MODE_COOKIE)
  return [kept, `${DRAFT_MODE_COOKIE}=${modeId}`].filter(Boolean).join('; ')
}

/**
 * The Content-Security-Policy of a preview page: the site's own policy (one source,
 * lib/content-security-policy.ts) with this response's nonce in place of script hashes.
 * Scripts run from this site, with the nonce, and frames show pages of this site, and
 * besides only the booking widget's script host and page host as the published settings
 * name them: a script runs with this origin's rights (the Studio's among them), and a
 * frame inside Presentation's shares its message channel, so a host that only a draft
 * names, which anyone allowed to write a draft could name, waits for a publish.
 * Connections and forms go to this site only: a preview's contact form posts to the
 * publisher's stand-in (lib/content `getSiteSettings` with `preview`), whatever a draft
 * names. This site and the Studio origins may frame it (Presentation).
 * Images come from this site, and from `imageOrigins` (Sanity's image CDN, where a draft's
 * new image is served from with the Content Lake: lib/content/preview-images.ts).
 * @param nonce base64, fresh for each response
 * @param settings the integrations of the published settings (after the schema's rules);
 *   null when they could not be read: then no other host at all
 * @param studioOrigins STUDIO_ORIGINS
 * @param imageOrigins the content source's image hosts (`previewImageOrigins`)
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

/**
 * The request header that names an editor's session to this process: a tag the publisher
 * derives from the session (never the session itself) and sets on every request it hands
 * over, in place of any copy the editor sent. Only the publisher can reach this process's
 * socket, so the tag is believed; the render never sees it.
 */
export const SESSION_HEADER = 'x-preview-session'

/** The session tag of a request, taken off it (`SESSION_HEADER`); '' when there is none. */
function takeSession(req: IncomingMessage): string {
  const tag = req.headers[SESSION_HEADER]
  delete req.headers[SESSION_HEADER]
  return typeof tag === 'string' ? tag : ''
}

/** Characters that mean something in HTML, as entities: a notice names a path an editor typed. */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

/**
 * A small page that tells an editor why the preview did not render: readable on its own,
 * in the preview's frame or a tab, with no script.
 * @param title the heading; text the sentence under it (both plain text)
 */
export function noticePage(title: string, text: string): string {
  return `<!doctype html><html lang="en-GB"><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><body style="font:1rem/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1.25rem"><h1 style="font-size:1.5rem">${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p><p><a href="">Try again</a></p></body></html>`
}

/**
 * Drops Next's `x-nextjs-cache` header from a response: it says HIT or STALE for a page
 * of its cache, but every preview answer is rendered for its request, from drafts.
 */
function withoutCacheVerdict(res: ServerResponse): void {
  const setHeader = res.setHeader.bind(res)
  res.setHeader = (name: string, value: number | string | readonly string[]) =>
    name.toLowerCase() === 'x-nextjs-cache' ? res : setHeader(name, value)
}

/**
 * A request URL for a folder of public/ with an index.html (`/booking/`, `/booking`),
 * pointed at that file: Next serves public/ files by their exact path only.
 * @returns the URL, rewritten or as it was (its query kept)
 */
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

/** The policy of a notice page answered before a render's own: no script, no other host. */
const noticePolicy = (studioOrigins: readonly string[]) =>
  [
    `default-src 'none'`,
    `style-src 'unsafe-inline'`,
    ['frame-ancestors', `'self'`, ...studioOrigins].join(' '),
  ].join('; ')

/**
 * The headers of every answer to an editor's request that is not a render's own: a notice
 * (busy, too slow) here, and the publisher's own answers for the preview (starting, no
 * answer, a request it cannot hand over: server/preview-process.ts, server/app.ts): the
 * site's base headers (nosniff among them), the preview's (never cached, never indexed),
 * and a policy under which nothing runs, which the Studio may still frame.
 * @param studioOrigins STUDIO_ORIGINS
 */
export function noticeHeaders(studioOrigins: readonly string[]): Record<string, string> {
  return { ...BASE_HEADERS, ...PREVIEW_HEADERS, 'Content-Security-Policy': noticePolicy(studioOrigins) }
}

export type PreviewRendererOptions = {
  handler: NextHandler
  /** Next's draft-mode key of the build (its prerender manifest's previewModeId). */
  modeId: string
  /** STUDIO_ORIGINS: they may frame preview pages (Presentation). */
  studioOrigins: readonly string[]
  /** Hosts besides this site that preview pages may load images from (`previewImageOrigins`). */
  imageOrigins?: readonly string[]
  /**
   * Content images, answered before Next and outside the renders' places
   * (server/preview-media.ts): `answer` returns false for a path that is not one.
   */
  media?: { answer(req: IncomingMessage, res: ServerResponse): Promise<boolean> }
  /**
   * The integrations of the settings a perspective shows, validated (lib/content
   * `getSiteSettings`). Only the published ones are asked for: they name the hosts a
   * preview page may use (`previewContentSecurityPolicy`); a rejection gives the policy
   * without other hosts.
   */
  settings: (perspective: Perspective) => Promise<IntegrationSettings>
  limits?: Partial<RenderLimits>
  /** Told about a render that outlived `hardLimitMs` (the process then ends). */
  onRunaway: (path: string) => void
  /** Told about a request's failure (its path, the error). */
  onError: (path: string, error: unknown) => void
  /**
   * The app's public/ folder: a folder path there with an index.html (the booking widget's
   * stand-in, `/booking/`) answers with that file, as the live site's server does.
   */
  publicDir?: string
  /**
   * The preview build's static folder (Next's `/_next/static/`): a file there is Next's to
   * send from disk at once, outside the renders' places (a page of the preview asks for
   * about ten of them at once, which would otherwise wait behind renders and count against
   * its editor's share). Anything else under `/_next/static/` waits its turn.
   */
  staticDir?: string
}

/** Where Next serves its build's static files. */
const STATIC_PREFIX = '/_next/static/'

/**
 * The files of a build's static folder, by their path under `/_next/static/` (read once:
 * a build never changes under a running process).
 * @throws Error naming the folder when it cannot be read
 */
function staticFiles(dir: string): Set<string> {
  try {
    const entries = readdirSync(dir, { recursive: true, withFileTypes: true })
    return new Set(
      entries
        .filter((entry) => entry.isFile())
        .map((entry) =>
          path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
        ),
    )
  } catch (error) {
    throw new Error(`preview: the build's static folder ${dir} cannot be read: ${(error as Error).message}`)
  }
}

/** See the module comment. */
export class PreviewRenderer {
  readonly limits: RenderLimits
  #options: PreviewRendererOptions
  #queue: PQueue<SessionQueue, SessionQueueOptions>
  /** Each session's requests rendering or waiting now. */
  #held = new Map<string, number>()
  #staticFiles: Set<string>

  constructor(options: PreviewRendererOptions) {
    this.#options = options
    this.limits = { ...DEFAULT_RENDER_LIMITS, ...options.limits }
    this.#queue = new PQueue({ concurrency: this.limits.concurrency, queueClass: SessionQueue })
    this.#staticFiles = options.staticDir ? staticFiles(options.staticDir) : new Set()
  }

  /** Whether a request asks for a file of the build's static folder, by its exact name. */
  #isStaticFile(path: string): boolean {
    return path.startsWith(STATIC_PREFIX) && this.#staticFiles.has(path.slice(STATIC_PREFIX.length))
  }

  /** Renders running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.#queue.pending, waiting: this.#queue.size }
  }

  /**
   * Answers one request (see the module comment). Never throws: a failure is the
   * editor's page, and `onError`'s.
   */
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

    // The place is taken now, before anything else is awaited (see the module comment).
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
    // A request answered (the time limit) or left by its editor while it waits leaves the queue.
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
          // A render that fails names the drafts it read (preview-render-failure.ts).
          answerFailureWith(res, () => noticePage(...failedRenderNotice(path, [...drafts.values()])))
          if (this.#options.publicDir) req.url = withIndexFile(req.url ?? '/', this.#options.publicDir)
          // Next takes the nonce for its scripts from the request's policy (as a proxy would set it).
          req.headers['content-security-policy'] = policy
          res.setHeader('Content-Security-Policy', policy)
          // The place is free once the render's answer is sent or the editor went away: Next's
          // handler can stay pending after a client that left mid-stream (a navigation, a
          // prefetch). Not when the time limit answered: that render is still working.
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

  /**
   * This request's policy, with a fresh nonce, from the published settings; settings that
   * cannot be read give one without other hosts.
   */
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
