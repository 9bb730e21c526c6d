/** The publisher's Fastify app: the live build, the webhook, publish states, preview, inbox, `/healthz`. */
import rateLimit from '@fastify/rate-limit'
import replyFrom from '@fastify/reply-from'
import Fastify, { LogController, type FastifyBaseLogger, type FastifyReply } from 'fastify'
import type { SanityClient } from '@sanity/client'
import type { Logger } from 'pino'
import type { BuildStore } from './publishing/build-store.ts'
import type { ServerConfig } from './config.ts'
import { EditorAccess } from './preview/editor-access.ts'
import { GuessLimit, WRONG_GUESSES } from './preview/guess-limit.ts'
import { healthRoutes } from './serving/health.ts'
import { inboxRoutes, type InboxFile } from './serving/inbox.ts'
import type { Publisher } from './publishing/publisher.ts'
import { publishStatusRoutes } from './publishing/publish-status.ts'
import { isPreviewRequest, previewCookies, previewRoutes } from './preview/preview.ts'
import type { PreviewDown, PreviewHandler } from './preview/preview-process.ts'
import { noticeHeaders } from './preview/preview-renderer.ts'
import { PreviewSessions } from './preview/preview-sessions.ts'
import { operatorToken } from './secrets.ts'
import { isLiveFile, staticRoutes } from './serving/static.ts'
import { STUDIO_BASE_PATH } from '../lib/studio.ts'
import { WEBHOOK_PATH } from '../lib/publisher-routes.ts'
import { webhookRoutes } from './publishing/webhook.ts'

/** What the app is made of: main.ts's parts and the settings; the rest for tests. */
export type ServerOptions = Partial<ServerConfig> & {
  store: BuildStore
  publisher: Publisher
  inbox: InboxFile
  log: Logger
  /**
   * Editors' draft preview: its secrets, what renders a session's requests (null while starting,
   * or why it is down: a fixed sentence, as an error's text can hold drafts), the process's socket.
   */
  preview?: {
    secret: string
    previousSecret?: string
    server: () => PreviewHandler | PreviewDown | null
    upstream?: { base: string; answerTimeoutMs: number }
  }
  /** Checks the secrets Sanity's Presentation tool makes (editor-access.ts); without it they are refused. */
  presentation?: SanityClient
  timeouts?: Partial<typeof SERVER_TIMEOUTS>
  /** Clock for webhook signatures. */
  now?: () => number
  wrongGuesses?: { max: number; timeWindow: number }
  previewSessionMs?: number
  previewSessionLimits?: { perClient?: number; limit?: number; opens?: { max: number; timeWindow: number } }
}

/**
 * How long the server waits on a client, in ms, so that a slow one holds a connection for seconds:
 * every body it takes (headers and body: `requestMs`) is small, 30 s is plenty on a slow phone;
 * keep-alive outlasts nginx's 60 s so a proxy closes first; idle (no byte either way) outlasts a
 * preview render's 30 s; `checkEveryMs` is how often Node checks the first two.
 */
export const SERVER_TIMEOUTS = {
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 65_000,
  idleMs: 60_000,
  checkEveryMs: 1_000,
}

/** Builds the Fastify app (not listening yet: `app.listen`; `app.close` lets requests in flight finish). */
export async function createServer(options: ServerOptions) {
  const { store, publisher, preview, studioOrigins = [] } = options
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
    // Answered before any hook, so before the preview session is known: with headers that keep it inert.
    frameworkErrors: (error, _request, reply) =>
      (reply as FastifyReply)
        .code(error.statusCode ?? 400)
        .headers(noticeHeaders(studioOrigins))
        .send({ error: error.message }),
  })
  const site = await staticRoutes(app, store)
  await app.register(rateLimit, { global: false })
  const limit = new GuessLimit(app, options.wrongGuesses ?? WRONG_GUESSES)
  const { opens, ...sessionLimits } = options.previewSessionLimits ?? {}
  const sessions = new PreviewSessions({ lifetimeMs: options.previewSessionMs, ...sessionLimits })
  const webhookSecrets = [options.webhookSecret, options.previousWebhookSecret].filter((s) => s !== undefined)
  if (preview) {
    const secrets = [preview.secret, preview.previousSecret].filter((secret) => secret !== undefined)
    // On the app itself, so that every route, the static ones included, can read the cookie.
    await previewCookies(app, { secrets })
    await app.register(previewRoutes, { secrets, presentation: options.presentation, sessions, limit, opens })
    if (preview.upstream) {
      const { base, answerTimeoutMs } = preview.upstream
      await app.register(replyFrom, {
        base,
        // Nothing retried: the process's 503 is the editor's answer, and a server action runs at most once.
        retryMethods: [],
        disableRequestLogging: true,
        undici: { connections: 64, headersTimeout: answerTimeoutMs, bodyTimeout: answerTimeoutMs },
      })
    }
    // Before any body is read (server actions are POSTs); the Studio and hashed files are the same in both.
    app.addHook('onRequest', async (request, reply) => {
      if (request.routeOptions.url !== '/*' || !isPreviewRequest(request, sessions)) return
      const path = request.url.split('?')[0] ?? '/'
      if (path === STUDIO_BASE_PATH || path.startsWith(`${STUDIO_BASE_PATH}/`)) return
      if (path.startsWith('/_next/static/') && (await isLiveFile(site, path))) return
      const ready = preview.server()
      if (ready !== null && !(ready instanceof Error)) return ready.handle(request, reply)
      return reply
        .headers(noticeHeaders(studioOrigins))
        .code(503)
        .header('Retry-After', '15')
        .type('text/plain')
        .send(`${ready ? ready.message : 'the preview is starting'}. Try again shortly.`)
    })
  }
  const access = new EditorAccess({
    hasPreviewSession: preview ? (request) => isPreviewRequest(request, sessions) : undefined,
    operatorTokens: webhookSecrets.map(operatorToken),
    presentation: options.presentation,
    limit,
  })
  await app.register(healthRoutes, { store, publisher, webhook: !!options.webhookSecret, preview, access })
  if (options.webhookSecret) {
    await app.register(webhookRoutes, {
      secrets: webhookSecrets,
      now: options.now,
      onPublish: (delivery) => publisher.accept(delivery),
    })
  } else {
    // Answered before the body is read, whatever its type.
    const off = async (_request: unknown, reply: FastifyReply) =>
      reply.code(404).send({ error: 'webhook is off' })
    app.post(WEBHOOK_PATH, { onRequest: off }, off)
  }
  const { documentStates } = publisher
  await app.register(publishStatusRoutes, { documentStates, studioOrigins, preview: !!preview, access })
  await app.register(inboxRoutes, { inbox: options.inbox, rateLimit: options.inboxRateLimit })
  return app
}
