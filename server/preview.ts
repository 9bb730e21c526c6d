/**
 * Editors' draft preview: the routes that let an editor in and out, and the test that
 * tells a preview request from a visitor's.
 * - `GET /preview/enable?secret=<SANITY_PREVIEW_SECRET>&redirect=<site path>` opens a
 *   preview session (preview-sessions.ts) and redirects to the path, which is checked
 *   after it is resolved (`safeRedirect`). The session travels in a signed, HttpOnly
 *   cookie with the session's lifetime (8 hours). Over https the cookie is Secure and
 *   SameSite=None, so the Studio's Presentation frame (another site) carries it; over
 *   plain http (a laptop) browsers refuse SameSite=None, so it is Lax there.
 *   A wrong or missing secret answers 401 and sets nothing; the 11th wrong one from a
 *   client within a minute answers 429 (guess-limit.ts). SANITY_PREVIEW_SECRET_PREVIOUS
 *   is accepted too while a rotation settles. A client may ask 30 times in 10 minutes,
 *   right secrets included (then 429), and holds at most 50 sessions (preview-sessions.ts).
 * - The same route takes the secret Sanity's Presentation tool generates for each
 *   editor's session (`?sanity-preview-secret=…&sanity-preview-pathname=/path`), checked
 *   with Sanity's `@sanity/preview-url-secret` against the project's Content Lake, which
 *   needs the project and a read token on the publisher (`presentationClient`).
 * - `GET` or `POST /preview/disable` ends the session on the publisher too (a copy of the
 *   cookie opens nothing afterwards), clears the cookie and goes back to the live site.
 *   Only the site's own pages (or a typed address) may ask: another site's link, image or
 *   form cannot drop an editor out of preview.
 * - `POST /preview/perspective` (JSON `{ perspective }`): Presentation's perspective
 *   switcher; with an open session, sets the `sanity-preview-perspective` cookie the
 *   preview server reads (a content release over drafts, or `published`), checked first.
 * - `POST /preview/contact`: a preview page's contact form posts here; the answer
 *   says "received" and nothing is kept, so a preview never reaches the real inbox.
 * With an open session, every other request goes to the preview server (app.ts,
 * preview-process.ts); without it, visitors get the live site.
 */
import fastifyCookie from '@fastify/cookie'
import type { SanityClient } from '@sanity/client'
import { urlSearchParamPreviewSecret, validatePreviewUrl } from '@sanity/preview-url-secret'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { perspectiveCookieName } from '@sanity/preview-url-secret/constants'
import { contentLakeClient, toPerspective, type ContentLakeSource } from '../lib/content/source.ts'
import {
  PREVIEW_CONTACT_PATH,
  PREVIEW_DISABLE_PATH,
  PREVIEW_ENABLE_PATH,
  PREVIEW_PERSPECTIVE_PATH,
} from '../lib/publisher-routes.ts'
import type { GuessLimit } from './guess-limit.ts'
import { PREVIEW_OPENS, type PreviewSessions } from './preview-sessions.ts'
import { deriveKey, matchesSecret } from './secrets.ts'

/** Headers of every preview answer: never indexed, never cached or shared. */
export const PREVIEW_HEADERS: Readonly<Record<string, string>> = {
  'X-Robots-Tag': 'noindex',
  'Cache-Control': 'private, no-store',
}

/** The preview cookie's name; its value is a session, signed with a key derived from the preview secret. */
export const PREVIEW_COOKIE = 'site_preview'

/** What the cookie-signing keys are derived for (see secrets.ts). */
const COOKIE_KEY_PURPOSE = 'preview session cookie'

/** The origin paths are resolved against: anything that resolves elsewhere leaves the site. */
const SITE = 'http://site.invalid'

/**
 * A path on this site to go to after enabling preview. The value is resolved first (dot
 * segments, backslashes, encoded dots, tabs and newlines as a browser would) and checked
 * after: whatever resolves outside the site, or to a path starting with `//` or `/\`
 * (which a browser would read as another host), becomes `/`.
 * @param value the `redirect` parameter, or Presentation's pathname
 * @returns a path with its query and hash, always starting with a single `/`
 */
export function safeRedirect(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/')) return '/'
  let url: URL
  try {
    url = new URL(value, SITE)
  } catch {
    return '/'
  }
  if (url.origin !== SITE || /^\/[/\\]/.test(url.pathname)) return '/'
  return `${url.pathname}${url.search}${url.hash}`
}

/**
 * Whether a request comes from this site's own pages, or from the editor typing the
 * address (Fetch Metadata: `same-origin` or `none`). Another site's link, image or form
 * says `cross-site` (or `same-site` from a sibling subdomain) and is refused. Browsers
 * without Fetch Metadata send no header and are let through: what a request without the
 * header can do is end a session whose cookie it already holds.
 */
export function fromThisSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site']
  return site === undefined || site === 'same-origin' || site === 'none'
}

/** Whether a request is a frame's, on a page of another site (the browser's Fetch Metadata). */
export const framedByAnotherSite = (request: FastifyRequest): boolean =>
  request.headers['sec-fetch-dest'] === 'iframe' && request.headers['sec-fetch-site'] === 'cross-site'

/**
 * The open preview session a request carries, if any (needs the cookie plugin below).
 * @returns the cookie's value when its signature holds and its session is open, else null
 */
function sessionCookieOf(request: FastifyRequest, sessions: PreviewSessions): string | null {
  const value = request.cookies?.[PREVIEW_COOKIE]
  if (!value) return null
  const unsigned = request.unsignCookie(value)
  return unsigned.valid && unsigned.value && sessions.find(unsigned.value) ? unsigned.value : null
}

/** Whether a request carries an open preview session (needs the cookie plugin below). */
export const isPreviewRequest = (request: FastifyRequest, sessions: PreviewSessions): boolean =>
  sessionCookieOf(request, sessions) !== null

/**
 * The cookie parser, signing with keys derived from the preview secrets (the current one
 * signs; a previous one still verifies while a rotation settles). Register it on the app
 * itself (not inside a plugin), so the static routes can read the cookie too.
 * @param secrets SANITY_PREVIEW_SECRET first, then SANITY_PREVIEW_SECRET_PREVIOUS if set
 */
export async function previewCookies(
  app: FastifyInstance,
  { secrets }: { secrets: readonly string[] },
): Promise<void> {
  await app.register(fastifyCookie, {
    secret: secrets.map((secret) => deriveKey(secret, COOKIE_KEY_PURPOSE)),
    hook: 'onRequest',
  })
}

/**
 * The Content Lake project whose Presentation secrets the publisher accepts, with a read
 * token (Viewer): Presentation keeps its secrets where only tokens can read them.
 */
export type PresentationProject = Omit<ContentLakeSource, 'kind' | 'perspective'> & { token: string }

/** The Sanity client `@sanity/preview-url-secret` checks secrets with (it sets its own perspective). */
export function presentationClient(project: PresentationProject): Promise<SanityClient> {
  return contentLakeClient({ kind: 'sanity', ...project })
}

export type PreviewRouteOptions = {
  /** SANITY_PREVIEW_SECRET, then SANITY_PREVIEW_SECRET_PREVIOUS if set. */
  secrets: readonly string[]
  /** Checks Presentation's generated secrets; without it they are refused, saying why. */
  presentation?: SanityClient
  sessions: PreviewSessions
  /** Counts wrong secrets per client. */
  limit: GuessLimit
  /** Enable requests per client and window, right and wrong ones (default PREVIEW_OPENS). */
  opens?: { max: number; timeWindow: number }
}

type Verdict = { ok: true; redirect: unknown } | { ok: false; status: number; error: string }

/**
 * Checks the secret of an enable request: Presentation's generated one when the URL
 * carries it, else SANITY_PREVIEW_SECRET.
 */
async function checkEnable(
  url: string,
  query: { secret?: string; redirect?: string },
  options: PreviewRouteOptions,
): Promise<Verdict> {
  const fromPresentation = new URL(url, 'http://site.invalid').searchParams.has(urlSearchParamPreviewSecret)
  if (!fromPresentation)
    return matchesSecret(String(query.secret ?? ''), options.secrets)
      ? { ok: true, redirect: query.redirect }
      : { ok: false, status: 401, error: 'wrong preview secret' }
  if (!options.presentation)
    return {
      ok: false,
      status: 401,
      error:
        "Presentation's secret cannot be checked: the publisher needs SANITY_PROJECT_ID and SANITY_READ_TOKEN",
    }
  try {
    const result = await validatePreviewUrl(options.presentation, url)
    return result.isValid
      ? { ok: true, redirect: result.redirectTo }
      : { ok: false, status: 401, error: 'wrong or expired Presentation secret' }
  } catch (error) {
    return {
      ok: false,
      status: 503,
      error: `could not check Presentation's secret with Sanity: ${(error as Error).message}`,
    }
  }
}

/**
 * Registers the preview routes (after `previewCookies`).
 * @param options SANITY_PREVIEW_SECRET, and the client that checks Presentation's secrets
 */
export async function previewRoutes(app: FastifyInstance, options: PreviewRouteOptions): Promise<void> {
  app.get<{ Querystring: { secret?: string; redirect?: string } }>(
    PREVIEW_ENABLE_PATH,
    // Opening sessions costs too: a secret holder cannot open them without end from one address.
    { config: { rateLimit: options.opens ?? PREVIEW_OPENS } },
    async (request, reply) => {
      reply.headers(PREVIEW_HEADERS)
      if (options.limit.refuseIfLocked(request, reply)) return reply
      const verdict = await checkEnable(request.url, request.query, options)
      if (!verdict.ok) {
        if (verdict.status === 401) await options.limit.wrongGuess(request, 'preview secret')
        else
          request.log.error({ event: 'preview.unchecked', error: verdict.error }, `preview: ${verdict.error}`)
        return reply.code(verdict.status).send({ error: verdict.error })
      }
      const secure = request.protocol === 'https'
      reply.setCookie(PREVIEW_COOKIE, options.sessions.open(request.ip), {
        signed: true,
        httpOnly: true,
        path: '/',
        maxAge: Math.floor(options.sessions.lifetimeMs / 1000),
        secure,
        sameSite: secure ? 'none' : 'lax',
        // In a Studio on another site's frame, a partitioned cookie (CHIPS) is kept by
        // browsers that block third-party cookies (Chrome's and Firefox's policies).
        partitioned: secure && framedByAnotherSite(request),
      })
      return reply.redirect(safeRedirect(verdict.redirect), 303)
    },
  )

  const disable = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(PREVIEW_HEADERS)
    if (!fromThisSite(request))
      return reply.code(403).send({ error: 'only the site itself can end a preview session' })
    const session = sessionCookieOf(request, options.sessions)
    if (session) options.sessions.close(session)
    reply.clearCookie(PREVIEW_COOKIE, { path: '/' })
    reply.clearCookie(perspectiveCookieName, { path: '/' })
    // A partitioned cookie is only cleared by a partitioned Set-Cookie; the plugin keeps one
    // Set-Cookie per name, so these go out as headers of their own.
    if (request.protocol === 'https')
      for (const name of [PREVIEW_COOKIE, perspectiveCookieName])
        reply.header(
          'Set-Cookie',
          fastifyCookie.serialize(name, '', {
            path: '/',
            expires: new Date(0),
            secure: true,
            sameSite: 'none',
            partitioned: true,
          }),
        )
    return reply.redirect('/', 303)
  }
  app.get(PREVIEW_DISABLE_PATH, disable)

  app.post<{ Body: { perspective?: unknown } }>(
    PREVIEW_PERSPECTIVE_PATH,
    { bodyLimit: 1024 },
    async (request, reply) => {
      reply.headers(PREVIEW_HEADERS)
      if (!fromThisSite(request) || !sessionCookieOf(request, options.sessions))
        return reply.code(403).send({ error: 'only an open preview session may choose a perspective' })
      const perspective = toPerspective(request.body?.perspective)
      if (!perspective)
        return reply.code(400).send({ error: 'not a perspective: published, drafts or releases' })
      const secure = request.protocol === 'https'
      reply.setCookie(perspectiveCookieName, [perspective].flat().join(','), {
        httpOnly: true,
        path: '/',
        maxAge: Math.floor(options.sessions.lifetimeMs / 1000),
        secure,
        sameSite: secure ? 'none' : 'lax',
        // Partitioned (CHIPS) over https: kept in the Studio's frame by browsers that block
        // third-party cookies, and an ordinary cookie of this site at the top level.
        partitioned: secure,
      })
      return reply.code(204).send()
    },
  )

  // Any body is accepted and dropped: nothing of a preview's form is kept.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_req, _body, done) =>
      done(null, null),
    )
    scope.post(PREVIEW_DISABLE_PATH, disable)
    scope.post(PREVIEW_CONTACT_PATH, async (request, reply) => {
      reply.headers(PREVIEW_HEADERS)
      const fromForm = String(request.headers['content-type'] ?? '').startsWith(
        'application/x-www-form-urlencoded',
      )
      return fromForm ? reply.redirect('/#contact', 303) : reply.send({ status: 'received', preview: true })
    })
  })
}
