/**
 * Editors' draft preview: the routes that let an editor in and out, and the test that
 * tells a preview request from a visitor's.
 * - `GET /preview/enable?secret=<SANITY_PREVIEW_SECRET>&redirect=<site path>` sets a
 *   signed, HttpOnly cookie and redirects to the path. Over https the cookie is Secure
 *   and SameSite=None, so the Studio's Presentation frame (another site) carries it;
 *   over plain http (a laptop) browsers refuse SameSite=None, so it is Lax there.
 *   A wrong or missing secret answers 401 and sets nothing.
 * - The same route takes the secret Sanity's Presentation tool generates for each
 *   editor's session (`?sanity-preview-secret=…&sanity-preview-pathname=/path`), checked
 *   with Sanity's `@sanity/preview-url-secret` against the project's Content Lake, which
 *   needs the project and a read token on the publisher (`presentationClient`).
 * - `GET /preview/disable` clears it and goes back to the live site.
 * - `POST /preview/contact`: the preview build's contact form posts here; the answer
 *   says "received" and nothing is kept, so a preview never reaches the real inbox.
 * With the cookie, the static routes answer from the latest preview build
 * (static.ts), with `PREVIEW_HEADERS`; without it, visitors get the live site.
 */
import fastifyCookie from '@fastify/cookie'
import type { SanityClient } from '@sanity/client'
import { urlSearchParamPreviewSecret, validatePreviewUrl } from '@sanity/preview-url-secret'
import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { contentLakeClient, type ContentLakeSource } from '../lib/content/source.ts'
import {
  PREVIEW_CONTACT_PATH,
  PREVIEW_DISABLE_PATH,
  PREVIEW_ENABLE_PATH,
  PREVIEW_HEADERS,
} from '../lib/preview.ts'

/** The preview cookie's name; its value is signed with the preview secret. */
export const PREVIEW_COOKIE = 'site_preview'

/** Constant-time comparison of two secrets of any length. */
function sameSecret(given: string, secret: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest()
  return timingSafeEqual(digest(given), digest(secret))
}

/** A path on this site to go to after enabling preview; anything else becomes `/`. */
export function safeRedirect(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || /^\/[/\\]/.test(value)) return '/'
  try {
    const url = new URL(value, 'http://site.invalid')
    return url.origin === 'http://site.invalid' ? `${url.pathname}${url.search}${url.hash}` : '/'
  } catch {
    return '/'
  }
}

/**
 * A preview page's headers: the page's own from its build's `_headers`, with
 * `PREVIEW_HEADERS`, and its Content-Security-Policy's `frame-ancestors` opened to this
 * site and the Studio origins, so that the Studio's Presentation tool can frame it
 * (visitors' pages keep `frame-ancestors 'none'`).
 * @param headers the page's headers (names as `_headers` writes them)
 * @param studioOrigins STUDIO_ORIGINS
 * @throws Error when the page has a policy without a `frame-ancestors` directive: the
 *   postbuild's policy changed shape, and the preview would be framed by its old rule
 */
export function previewPageHeaders(
  headers: Record<string, string>,
  studioOrigins: readonly string[],
): Record<string, string> {
  const name = Object.keys(headers).find((key) => key.toLowerCase() === 'content-security-policy')
  const policy = name ? headers[name] : undefined
  if (!name || policy === undefined) return { ...headers, ...PREVIEW_HEADERS }
  const directives = policy.split(';').map((directive) => directive.trim())
  const index = directives.findIndex((directive) => /^frame-ancestors(\s|$)/.test(directive))
  if (index < 0)
    throw new Error(`preview: the page's Content-Security-Policy has no frame-ancestors directive: ${policy}`)
  directives[index] = ['frame-ancestors', "'self'", ...studioOrigins].join(' ')
  return { ...headers, [name]: directives.join('; '), ...PREVIEW_HEADERS }
}

/** Whether a request is a frame's, on a page of another site (the browser's Fetch Metadata). */
export const framedByAnotherSite = (request: FastifyRequest): boolean =>
  request.headers['sec-fetch-dest'] === 'iframe' && request.headers['sec-fetch-site'] === 'cross-site'

/** Whether a request carries a valid preview cookie (needs the cookie plugin below). */
export function isPreviewRequest(request: FastifyRequest): boolean {
  const value = request.cookies?.[PREVIEW_COOKIE]
  if (!value) return false
  const unsigned = request.unsignCookie(value)
  return unsigned.valid && unsigned.value === 'on'
}

/**
 * The cookie parser, signing with the preview secret. Register it on the app itself
 * (not inside a plugin), so the static routes can read the cookie too.
 */
export async function previewCookies(app: FastifyInstance, { secret }: { secret: string }): Promise<void> {
  await app.register(fastifyCookie, { secret, hook: 'onRequest' })
}

/**
 * The Content Lake project whose Presentation secrets the publisher accepts, with a read
 * token (Viewer): Presentation keeps its secrets where only tokens can read them.
 */
export type PresentationProject = Omit<ContentLakeSource, 'kind' | 'perspective'> & { token: string }

/** The Sanity client `@sanity/preview-url-secret` checks secrets with (it sets its own perspective). */
export function presentationClient(project: PresentationProject): SanityClient {
  return contentLakeClient({ kind: 'sanity', ...project })
}

export type PreviewRouteOptions = {
  /** SANITY_PREVIEW_SECRET */
  secret: string
  /** Checks Presentation's generated secrets; without it they are refused, saying why. */
  presentation?: SanityClient
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
    return sameSecret(String(query.secret ?? ''), options.secret)
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
    async (request, reply) => {
      reply.headers(PREVIEW_HEADERS)
      const verdict = await checkEnable(request.url, request.query, options)
      if (!verdict.ok) {
        request.log.warn({ event: 'preview.refused', error: verdict.error }, `preview: ${verdict.error}`)
        return reply.code(verdict.status).send({ error: verdict.error })
      }
      const secure = request.protocol === 'https'
      reply.setCookie(PREVIEW_COOKIE, 'on', {
        signed: true,
        httpOnly: true,
        path: '/',
        secure,
        sameSite: secure ? 'none' : 'lax',
        // In a Studio on another site's frame, a partitioned cookie (CHIPS) is kept by
        // browsers that block third-party cookies (Chrome's and Firefox's policies).
        partitioned: secure && framedByAnotherSite(request),
      })
      return reply.redirect(safeRedirect(verdict.redirect), 303)
    },
  )

  app.get(PREVIEW_DISABLE_PATH, async (request, reply) => {
    reply.headers(PREVIEW_HEADERS).clearCookie(PREVIEW_COOKIE, { path: '/' })
    // A partitioned cookie is only cleared by a partitioned Set-Cookie; the plugin keeps one
    // Set-Cookie per name, so this one goes out as a header of its own.
    if (request.protocol === 'https')
      reply.header(
        'Set-Cookie',
        fastifyCookie.serialize(PREVIEW_COOKIE, '', {
          path: '/',
          expires: new Date(0),
          secure: true,
          sameSite: 'none',
          partitioned: true,
        }),
      )
    return reply.redirect('/', 303)
  })

  // Any body is accepted and dropped: nothing of a preview's form is kept.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_req, _body, done) =>
      done(null, null),
    )
    scope.post(PREVIEW_CONTACT_PATH, async (request, reply) => {
      reply.headers(PREVIEW_HEADERS)
      const fromForm = String(request.headers['content-type'] ?? '').startsWith(
        'application/x-www-form-urlencoded',
      )
      return fromForm ? reply.redirect('/#contact', 303) : reply.send({ status: 'received', preview: true })
    })
  })
}
