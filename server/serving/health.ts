/** `GET /healthz`: `PublicHealth` to anyone (503 while nothing is live), `HealthReport` to editors. */
import type { FastifyInstance } from 'fastify'
import { HEALTH_PATH } from '../../lib/publisher-routes.ts'
import type { BuildStore } from '../publishing/build-store.ts'
import type { EditorAccess } from '../preview/editor-access.ts'
import type { PreviewDownReason } from '../preview/preview-process.ts'
import type { Publisher } from '../publishing/publisher.ts'

/** 'off' without SANITY_PREVIEW_SECRET; a failure's class only (its detail can quote drafts). */
export type PreviewState = 'off' | 'starting' | 'ready' | { failed: PreviewDownReason }

export type HealthOptions = {
  store: BuildStore
  publisher: Publisher
  webhookEnabled: boolean
  preview?: () => PreviewState
}

/** What `/healthz` answers an editor; scripts/publisher-client.ts reads this type. */
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

export type PublicHealth = Pick<HealthReport, 'ok' | 'live' | 'building' | 'queued'>

export const publicHealth = ({ ok, live, building, queued }: HealthReport): PublicHealth => ({
  ok,
  live,
  building,
  queued,
})

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
