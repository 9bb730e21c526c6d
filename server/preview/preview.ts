/** Editors' preview routes (enable, disable, perspective, contact: docs/publishing.md), the session test. */
import fastifyCookie from '@fastify/cookie'
import type { SanityClient } from '@sanity/client'
import { urlSearchParamPreviewSecret, validatePreviewUrl } from '@sanity/preview-url-secret'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { perspectiveCookieName } from '@sanity/preview-url-secret/constants'
import { contentLakeClient, toPerspective, type ContentLakeSource } from '../../lib/content/source.ts'
import {
  PREVIEW_CONTACT_PATH,
  PREVIEW_DISABLE_PATH,
  PREVIEW_ENABLE_PATH,
  PREVIEW_PERSPECTIVE_PATH,
} from '../../lib/publisher-routes.ts'
import type { GuessLimit } from './guess-limit.ts'
import { PREVIEW_OPENS, type PreviewSessions } from './preview-sessions.ts'
import { deriveKey, matchesSecret } from '../secrets.ts'

export const PREVIEW_HEADERS: Readonly<Record<string, string>> = {
  'X-Robots-Tag': 'noindex',
  'Cache-Control': 'private, no-store',
}

/** Its value is a session, signed with a key derived from the preview secret. */
export const PREVIEW_COOKIE = 'site_preview'

const COOKIE_KEY_PURPOSE = 'preview session cookie'

const SITE = 'http://site.invalid'

/**
 * Where to go after enabling preview: `value` resolved as a browser would, then `/` if that leaves the
 * site or starts with `//` or `/\` (another host to a browser).
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
 * Whether Fetch Metadata says this site's pages or a typed address sent it. Without the header it
 * passes: such a request can only end a session whose cookie it already holds.
 */
export function fromThisSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site']
  return site === undefined || site === 'same-origin' || site === 'none'
}

export const framedByAnotherSite = (request: FastifyRequest): boolean =>
  request.headers['sec-fetch-dest'] === 'iframe' && request.headers['sec-fetch-site'] === 'cross-site'

/** The session of a validly signed cookie, if still open (needs `previewCookies`). */
function sessionCookieOf(request: FastifyRequest, sessions: PreviewSessions): string | null {
  const value = request.cookies?.[PREVIEW_COOKIE]
  if (!value) return null
  const unsigned = request.unsignCookie(value)
  return unsigned.valid && unsigned.value && sessions.find(unsigned.value) ? unsigned.value : null
}

export const isPreviewRequest = (request: FastifyRequest, sessions: PreviewSessions): boolean =>
  sessionCookieOf(request, sessions) !== null

/**
 * The cookie parser, keyed from the preview secrets (the first signs, a previous one still verifies).
 * Register it on the app itself, so the static routes read the cookie too.
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

/** Presentation keeps its secrets where only tokens can read them: a Viewer token. */
export type PresentationProject = Omit<ContentLakeSource, 'kind' | 'perspective'> & { token: string }

export function presentationClient(project: PresentationProject): Promise<SanityClient> {
  return contentLakeClient({ kind: 'sanity', ...project })
}

/**
 * `secrets`: SANITY_PREVIEW_SECRET, then SANITY_PREVIEW_SECRET_PREVIOUS if set; without `presentation`
 * Presentation's secrets are refused, saying why; `opens`: enable requests per client and window, right
 * and wrong ones (default PREVIEW_OPENS).
 */
export type PreviewRouteOptions = {
  secrets: readonly string[]
  presentation?: SanityClient
  sessions: PreviewSessions
  limit: GuessLimit
  opens?: { max: number; timeWindow: number }
}

type Verdict = { ok: true; redirect: unknown } | { ok: false; status: number; error: string }

const refused = (status: number, error: string): Verdict => ({ ok: false, status, error })

async function checkEnable(
  url: string,
  query: { secret?: string; redirect?: string },
  options: PreviewRouteOptions,
): Promise<Verdict> {
  const fromPresentation = new URL(url, SITE).searchParams.has(urlSearchParamPreviewSecret)
  if (!fromPresentation)
    return matchesSecret(String(query.secret ?? ''), options.secrets)
      ? { ok: true, redirect: query.redirect }
      : refused(401, 'wrong preview secret')
  if (!options.presentation)
    return refused(
      401,
      "Presentation's secret cannot be checked: the publisher needs SANITY_PROJECT_ID and SANITY_READ_TOKEN",
    )
  try {
    const result = await validatePreviewUrl(options.presentation, url)
    return result.isValid
      ? { ok: true, redirect: result.redirectTo }
      : refused(401, 'wrong or expired Presentation secret')
  } catch (error) {
    return refused(503, `could not check Presentation's secret with Sanity: ${(error as Error).message}`)
  }
}

/** Registers the preview routes (after `previewCookies`). */
export async function previewRoutes(app: FastifyInstance, options: PreviewRouteOptions): Promise<void> {
  // Cross-site (Presentation's frame) over https; `partitioned` only where it is secure.
  const sessionCookie = (request: FastifyRequest, partitioned: boolean) => {
    const secure = request.protocol === 'https'
    const maxAge = Math.floor(options.sessions.lifetimeMs / 1000)
    const sameSite = secure ? ('none' as const) : ('lax' as const)
    return { httpOnly: true, path: '/', maxAge, secure, sameSite, partitioned: secure && partitioned }
  }
  app.get<{ Querystring: { secret?: string; redirect?: string } }>(
    PREVIEW_ENABLE_PATH,
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
      // CHIPS: kept in another site's frame by browsers that block third-party cookies.
      reply.setCookie(PREVIEW_COOKIE, options.sessions.open(request.ip), {
        ...sessionCookie(request, framedByAnotherSite(request)),
        signed: true,
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
      reply.setCookie(perspectiveCookieName, [perspective].flat().join(','), sessionCookie(request, true))
      return reply.code(204).send()
    },
  )

  // Any body is accepted and dropped.
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
