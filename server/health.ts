/**
 * `GET /healthz`: what is live and what the publisher is doing, as JSON:
 * `{ ok, live: {id, builtAt} | null, building, queued, lastBuild, lastError,
 *    preview: {lastBuild, lastError} | null, builds: [{id, builtAt, live}], webhook: 'on' | 'off' }`.
 */
import type { FastifyInstance } from 'fastify'
import type { BuildStore } from './builds.ts'
import type { Publisher } from './publisher.ts'

export type HealthOptions = { store: BuildStore; publisher: Publisher; webhookEnabled: boolean }

/** Registers `/healthz` (never cached). */
export async function healthRoutes(app: FastifyInstance, options: HealthOptions): Promise<void> {
  app.get('/healthz', async (_request, reply) => {
    const builds = await options.store.list()
    const live = builds.find((build) => build.live) ?? null
    const status = options.publisher.status()
    return reply
      .header('Cache-Control', 'no-store')
      .code(live ? 200 : 503)
      .send({
        ok: Boolean(live),
        live: live && { id: live.id, builtAt: live.builtAt },
        building: status.building,
        queued: status.queued,
        lastBuild: status.lastBuild,
        lastError: status.lastError,
        preview: status.preview,
        buildCounts: status.builds,
        builds: builds.map(({ id, builtAt, live }) => ({ id, builtAt, live })),
        webhook: options.webhookEnabled ? 'on' : 'off',
      })
  })
}
