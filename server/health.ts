/**
 * `GET /healthz`: what is live and what the publisher is doing, as JSON:
 * `{ ok, live: {id, builtAt} | null, building, queued, lastBuild, lastError,
 *    preview: {lastBuild, lastError} | null, builds: [{id, builtAt, live}], webhook: 'on' | 'off' }`.
 */
import type { FastifyInstance } from 'fastify'
import type { BuildStore } from './builds.ts'
import type { Publisher } from './publisher.ts'

export type HealthOptions = { store: BuildStore; publisher: Publisher; webhookEnabled: boolean }

/** What `/healthz` answers (see the module comment); the scripts that poll it read this type. */
export async function healthReport({ store, publisher, webhookEnabled }: HealthOptions) {
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
    preview: status.preview,
    buildCounts: status.builds,
    builds: builds.map(({ id, builtAt, live }) => ({ id, builtAt, live })),
    webhook: webhookEnabled ? ('on' as const) : ('off' as const),
  }
}
export type HealthReport = Awaited<ReturnType<typeof healthReport>>

/** Registers `/healthz` (never cached). */
export async function healthRoutes(app: FastifyInstance, options: HealthOptions): Promise<void> {
  app.get('/healthz', async (_request, reply) => {
    const report = await healthReport(options)
    return reply
      .header('Cache-Control', 'no-store')
      .code(report.ok ? 200 : 503)
      .send(report)
  })
}
