/**
 * `GET /healthz`: what is live and what the publisher is doing, as JSON. Everyone (a load
 * balancer, an uptime check) gets the public part, `PublicHealth`:
 * `{ ok, live: {id, builtAt} | null, building, queued }`, 200 while a build is live, else
 * 503. An editor or the operator (editor-access.ts: a preview session, the operator token
 * `publish:local` sends, or the Studio's Presentation secret) gets the whole report,
 * `HealthReport`: that, and `lastBuild, lastError, lastCleanupError, buildCounts: {succeeded,
 * failed, cancelled}, builds: [{id, builtAt, live}],
 * webhook: 'on' | 'off', preview: 'off' | 'starting' | 'ready' | {failed: class}` (editors'
 * preview process, server/preview-process.ts: the class of reason only, e.g. 'crashed'; its
 * detail, which can hold drafts, is in the log). A failed build's whole reason can name every
 * document's content error and the machine's paths: only editors see it.
 */
import type { FastifyInstance } from 'fastify'
import { HEALTH_PATH } from '../lib/publisher-routes.ts'
import type { BuildStore } from './build-store.ts'
import type { EditorAccess } from './editor-access.ts'
import type { PreviewDownReason } from './preview-process.ts'
import type { Publisher } from './publisher.ts'

/** The preview server's state: off (no SANITY_PREVIEW_SECRET), starting, ready, or why it failed (the class). */
export type PreviewState = 'off' | 'starting' | 'ready' | { failed: PreviewDownReason }

export type HealthOptions = {
  store: BuildStore
  publisher: Publisher
  webhookEnabled: boolean
  /** The preview server's state now (default 'off'). */
  preview?: () => PreviewState
}

/**
 * What `/healthz` answers an editor (see the module comment). The publisher's client
 * (scripts/publisher-client.ts), which the operator's scripts poll it with, reads this type.
 */
export async function healthReport({ store, publisher, webhookEnabled, preview }: HealthOptions) {
  const builds = await store.list()
  const live = builds.find((build) => build.live) ?? null
  const status = publisher.status()
  return {
    ok: Boolean(live),
    live: live && { id: live.id, builtAt: live.builtAt },
    building: status.building,
    queued: status.queued,
    lastBuild: status.lastBuild,
    lastError: status.lastError,
    lastCleanupError: status.lastCleanupError,
    buildCounts: status.builds,
    builds: builds.map(({ id, builtAt, live }) => ({ id, builtAt, live })),
    webhook: webhookEnabled ? ('on' as const) : ('off' as const),
    preview: preview?.() ?? 'off',
  }
}
export type HealthReport = Awaited<ReturnType<typeof healthReport>>

/** What `/healthz` answers anyone. */
export type PublicHealth = Pick<HealthReport, 'ok' | 'live' | 'building' | 'queued'>

/** The public part of a report. */
export const publicHealth = ({ ok, live, building, queued }: HealthReport): PublicHealth => ({
  ok,
  live,
  building,
  queued,
})

/** Registers `/healthz` (never cached). */
export async function healthRoutes(
  app: FastifyInstance,
  options: HealthOptions & { access: EditorAccess },
): Promise<void> {
  app.get(HEALTH_PATH, async (request, reply) => {
    reply.header('Cache-Control', 'no-store').header('Vary', 'Authorization, Cookie')
    const access = await options.access.check(request, reply)
    if (access === 'answered') return reply
    const report = await healthReport(options)
    return reply.code(report.ok ? 200 : 503).send(access === 'editor' ? report : publicHealth(report))
  })
}
