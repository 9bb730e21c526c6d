/**
 * Editors' draft preview: the routes that let an editor in and out, and the test that
 * tells a preview request from a visitor's.
 * - `GET /preview/enable?secret=<SANITY_PREVIEW_SECRET>&redirect=<site path>` sets a
 *   signed, HttpOnly cookie and redirects to the path. Over https the cookie is Secure
 *   and SameSite=None, so the Studio's Presentation frame (another site) carries it;
 *   over plain http (a laptop) browsers refuse SameSite=None, so it is Lax there.
 *   A wrong or missing secret answers 401 and sets nothing.
 * - `GET /preview/disable` clears it and goes back to the live site.
 * - `POST /preview/contact`: the preview build's contact form posts here; the answer
 *   says "received" and nothing is kept, so a preview never reaches the real inbox.
 * With the cookie, the static routes answer from the latest preview build
 * (static.ts), with `PREVIEW_HEADERS`; without it, visitors get the live site.
 */
import fastifyCookie from '@fastify/cookie'
import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
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
 * Registers the preview routes (after `previewCookies`).
 * @param secret SANITY_PREVIEW_SECRET
 */
export async function previewRoutes(app: FastifyInstance, { secret }: { secret: string }): Promise<void> {
  app.get<{ Querystring: { secret?: string; redirect?: string } }>(
    PREVIEW_ENABLE_PATH,
    async (request, reply) => {
      reply.headers(PREVIEW_HEADERS)
      if (!sameSecret(String(request.query.secret ?? ''), secret)) {
        request.log.warn({ event: 'preview.refused' }, 'preview: wrong secret')
        return reply.code(401).send({ error: 'wrong preview secret' })
      }
      const secure = request.protocol === 'https'
      reply.setCookie(PREVIEW_COOKIE, 'on', {
        signed: true,
        httpOnly: true,
        path: '/',
        secure,
        sameSite: secure ? 'none' : 'lax',
      })
      return reply.redirect(safeRedirect(request.query.redirect), 303)
    },
  )

  app.get(PREVIEW_DISABLE_PATH, async (_request, reply) => {
    reply.headers(PREVIEW_HEADERS).clearCookie(PREVIEW_COOKIE, { path: '/' })
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
