/**
 * The server `npm start` runs, assembled from its parts (each its own module):
 * static serving of the live build, the Sanity webhook that asks the publisher
 * for a rebuild, each document's publish state for the Studio, the contact inbox and
 * `/healthz`.
 */
import rateLimit from '@fastify/rate-limit'
import replyFrom from '@fastify/reply-from'
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
} from 'fastify'
import type { SanityClient } from '@sanity/client'
import type { Logger } from 'pino'
import type { BuildStore } from './build-store.ts'
import type { TrustProxy } from './config.ts'
import { EditorAccess } from './editor-access.ts'
import { GuessLimit, WRONG_GUESSES } from './guess-limit.ts'
import { healthRoutes } from './health.ts'
import { inboxRoutes, type InboxFile } from './inbox.ts'
import type { Publisher } from './publisher.ts'
import { publishStatusRoutes } from './publish-status.ts'
import { isPreviewRequest, previewCookies, previewRoutes } from './preview.ts'
import type { PreviewDown, PreviewHandler } from './preview-process.ts'
import { noticeHeaders } from './preview-renderer.ts'
import { PreviewSessions } from './preview-sessions.ts'
import { operatorToken } from './secrets.ts'
import { headersForRequest, isLiveFile, setHeaders, SiteCache, staticRoutes } from './static.ts'
import { STUDIO_BASE_PATH } from '../lib/studio.ts'
import { WEBHOOK_PATH } from '../lib/publisher-routes.ts'
import { webhookRoutes } from './webhook.ts'

export type ServerOptions = {
  store: BuildStore
  publisher: Publisher
  inbox: InboxFile
  log: Logger
  /** `SANITY_WEBHOOK_SECRET`; without it `/webhooks/sanity` answers 404. */
  webhookSecret?: string
  /** `SANITY_WEBHOOK_SECRET_PREVIOUS`: also accepted, while a rotation settles. */
  previousWebhookSecret?: string
  /** Contact submissions per client per window (default 10 per 10 minutes). */
  inboxRateLimit?: { max: number; timeWindow: number }
  /**
   * Whose `X-Forwarded-For` entries to believe, for per-client limits (TRUST_PROXY,
   * config.ts): false, or the proxies' addresses and CIDR ranges.
   */
  trustProxy?: TrustProxy
  /** The server's time limits on a client (default SERVER_TIMEOUTS; tests shorten them). */
  timeouts?: Partial<ServerTimeouts>
  /** Clock for webhook signatures (tests). */
  now?: () => number
  /** Studio origins that may read publish states (`/api/publish-status/:id`) and frame previews. */
  studioOrigins?: string[]
  /**
   * Editors' draft preview (server/preview.ts): SANITY_PREVIEW_SECRET, and what renders a
   * session's requests (the preview process, server/preview-process.ts): null while it is
   * starting (its requests then get 503), or the class of reason it is down (a fixed
   * sentence, never an error's text, which can hold drafts). Without `preview`
   * there is none. `previousSecret` (SANITY_PREVIEW_SECRET_PREVIOUS) is still accepted
   * while a rotation settles. `upstream`: the preview process's socket, which the
   * proxy (`@fastify/reply-from`) connects to, with the longest wait for an answer in ms.
   */
  preview?: {
    secret: string
    previousSecret?: string
    server: () => PreviewHandler | PreviewDown | null
    upstream?: { base: string; answerTimeoutMs: number }
  }
  /**
   * The client that checks the secrets Sanity's Presentation tool makes (a Content Lake
   * project with a read token): for /preview/enable, and as the Studio's proof that an
   * editor asks (editor-access.ts). Without it both are refused.
   */
  presentation?: SanityClient
  /** Wrong secrets and tokens allowed per client and window (default 10 a minute). */
  wrongGuesses?: { max: number; timeWindow: number }
  /** Preview sessions' lifetime in ms (default 8 hours; tests). */
  previewSessionMs?: number
  /**
   * Preview sessions per client (default 50) and in all (10,000), and `/preview/enable`
   * requests per client and window (default 30 in 10 minutes); tests.
   */
  previewSessionLimits?: { perClient?: number; limit?: number; opens?: { max: number; timeWindow: number } }
}

/** How long the server waits on a client, in ms. */
export type ServerTimeouts = {
  /** For a request's headers, from its first byte. */
  headersMs: number
  /** For the whole request, headers and body: the webhook's, the contact form's, a server action's. */
  requestMs: number
  /** For the next request on an idle keep-alive connection. */
  keepAliveMs: number
  /** For any byte either way while a request is open: the longest wait is a preview render's answer. */
  idleMs: number
  /** How often Node checks connections against `headersMs` and `requestMs`. */
  checkEveryMs: number
}

/**
 * The server's time limits: a client that sends its request slowly, or its headers and
 * never the body, holds a connection for seconds, not for ever. Every body the server
 * takes is small (the contact form at most 32 KB, the webhook's a few hundred bytes, a
 * preview's server action a form's), 30 s for all of it is plenty on a slow phone.
 * Keep-alive 65 s: longer than nginx's upstream keep-alive (60 s) so that a proxy in front
 * closes an idle connection first and never sends a request on one the server just closed.
 * Idle 60 s: longer than the longest wait for a preview render's answer (30 s), when
 * nothing moves on the connection.
 */
export const SERVER_TIMEOUTS: ServerTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 65_000,
  idleMs: 60_000,
  checkEveryMs: 1_000,
}

/**
 * Builds the Fastify app (not listening yet).
 * @returns the app; `app.listen` starts it, `app.close` lets in-flight requests finish
 */
export async function createServer(options: ServerOptions): Promise<FastifyInstance> {
  const timeouts = { ...SERVER_TIMEOUTS, ...options.timeouts }
  const app = Fastify({
    loggerInstance: options.log as FastifyBaseLogger,
    trustProxy: options.trustProxy ?? false,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionTimeout: timeouts.idleMs,
    http: { headersTimeout: timeouts.headersMs, connectionsCheckingInterval: timeouts.checkEveryMs },
    // Page and asset requests are not logged one by one; webhooks, the inbox and errors are.
    logController: new LogController({
      disableRequestLogging: (request) => request.method === 'GET' || request.method === 'HEAD',
    }),
    return503OnClosing: false,
    // Longer than any Sanity document id (128), so a long one is answered 400 by its route.
    routerOptions: { maxParamLength: 256 },
    // An address that cannot be decoded is answered before any hook (so before the preview
    // session is known): with headers under which the answer runs nothing and is never kept.
    frameworkErrors: (error, _request, reply) =>
      (reply as FastifyReply)
        .code(error.statusCode ?? 400)
        .headers(noticeHeaders(options.studioOrigins ?? []))
        .send({ error: error.message }),
  })
  const cache = new SiteCache(options.store)
  // Every answer (pages, errors, the webhook, the inbox, /healthz) carries the headers
  // the live build's `_headers` gives its path: one source for this server and static hosts.
  app.addHook('onRequest', async (request, reply) => {
    setHeaders(reply, await headersForRequest(cache, request.url))
  })
  await app.register(rateLimit, { global: false })
  const limit = new GuessLimit(app, options.wrongGuesses ?? WRONG_GUESSES)
  const { opens, ...sessionLimits } = options.previewSessionLimits ?? {}
  const sessions = new PreviewSessions({ lifetimeMs: options.previewSessionMs, ...sessionLimits })
  const previewSecrets = options.preview
    ? [options.preview.secret, options.preview.previousSecret].filter((secret) => secret !== undefined)
    : []
  if (options.preview) {
    // On the app itself, so that every route, the static ones included, can read the cookie.
    await previewCookies(app, { secrets: previewSecrets })
    await app.register(previewRoutes, {
      secrets: previewSecrets,
      presentation: options.presentation,
      sessions,
      limit,
      opens,
    })
  }
  const webhookSecrets = [options.webhookSecret, options.previousWebhookSecret].filter(
    (secret) => secret !== undefined,
  )
  if (options.preview?.upstream) {
    const { base, answerTimeoutMs } = options.preview.upstream
    await app.register(replyFrom, {
      base,
      // Nothing retried: the process's 503 (busy, too slow) is the editor's answer, and a
      // POST (a server action) runs once or not at all.
      retryMethods: [],
      disableRequestLogging: true,
      undici: { connections: 64, headersTimeout: answerTimeoutMs, bodyTimeout: answerTimeoutMs },
    })
  }
  if (options.preview) {
    const { server } = options.preview
    // A session's requests go to the preview server, before any body is read (server actions
    // are POSTs) and whatever the method; the publisher's own routes (/preview/*, /healthz,
    // /api/*, the webhook) and the Studio (code, not content) stay here, and so do hashed
    // files of the live build (the Studio's chunks: the same name is the same bytes).
    app.addHook('onRequest', async (request, reply) => {
      if (request.routeOptions.url !== '/*' || !isPreviewRequest(request, sessions)) return
      const path = request.url.split('?')[0] ?? '/'
      if (path === STUDIO_BASE_PATH || path.startsWith(`${STUDIO_BASE_PATH}/`)) return
      if (path.startsWith('/_next/static/') && (await isLiveFile(cache, request.url))) return
      const ready = server()
      if (ready === null || ready instanceof Error) {
        reply.headers(noticeHeaders(options.studioOrigins ?? []))
        const error = ready ? ready.message : 'the preview is starting'
        return reply
          .code(503)
          .header('Retry-After', '15')
          .type('text/plain')
          .send(`${error}. Try again shortly.`)
      }
      return ready.handle(request, reply)
    })
  }
  const access = new EditorAccess({
    hasPreviewSession: options.preview ? (request) => isPreviewRequest(request, sessions) : undefined,
    operatorTokens: webhookSecrets.map(operatorToken),
    presentation: options.presentation,
    limit,
  })
  await app.register(staticRoutes, { cache })
  await app.register(healthRoutes, {
    store: options.store,
    publisher: options.publisher,
    webhookEnabled: Boolean(options.webhookSecret),
    preview: () => {
      const server = options.preview?.server()
      if (server === undefined) return 'off'
      if (server === null) return 'starting'
      return server instanceof Error ? { failed: server.reason } : 'ready'
    },
    access,
  })
  if (options.webhookSecret) {
    await app.register(webhookRoutes, {
      secrets: webhookSecrets,
      now: options.now,
      onPublish: (delivery) => options.publisher.accept(delivery),
    })
  } else {
    // Answered before the body is read, whatever its type.
    const off = async (_request: unknown, reply: FastifyReply) =>
      reply.code(404).send({ error: 'webhook is off' })
    app.post(WEBHOOK_PATH, { onRequest: off }, off)
  }
  await app.register(publishStatusRoutes, {
    documentStates: options.publisher.documentStates,
    studioOrigins: options.studioOrigins ?? [],
    preview: Boolean(options.preview),
    access,
  })
  await app.register(inboxRoutes, { inbox: options.inbox, rateLimit: options.inboxRateLimit })
  return app
}
