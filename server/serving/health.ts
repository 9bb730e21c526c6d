/** `GET /healthz`: ok, live, building and queued to anyone (503 with nothing live), all of it to editors. */
import type { FastifyInstance } from 'fastify'
import { HEALTH_PATH } from '../../lib/publisher-routes.ts'
import type { BuildStore } from '../publishing/build-store.ts'
import type { EditorAccess } from '../preview/editor-access.ts'
import type { PreviewDown, PreviewHandler } from '../preview/preview-process.ts'
import type { Publisher } from '../publishing/publisher.ts'

export type HealthOptions = {
  store: BuildStore
  publisher: Publisher
  webhook: boolean
  /** Absent without SANITY_PREVIEW_SECRET; a failure told by its class only (its detail can quote drafts). */
  preview?: { server: () => PreviewHandler | PreviewDown | null }
}

/** What `/healthz` answers an editor; scripts/publisher-client.ts reads this type. */
export async function healthReport({ store, publisher, webhook, preview }: HealthOptions) {
  const builds = await store.list()
  const live = builds.find((build) => build.live) ?? null
  const { building, queued, lastBuild, lastError, lastCleanupError, builds: buildCounts } = publisher.status()
  const server = preview?.server()
  return {
    ok: Boolean(live),
    live: live && { id: live.id, builtAt: live.builtAt },
    building,
    queued,
    lastBuild,
    lastError,
    lastCleanupError,
    buildCounts,
    builds: builds.map(({ id, builtAt, live }) => ({ id, builtAt, live })),
    webhook: webhook ? ('on' as const) : ('off' as const),
    preview:
      server === undefined
        ? ('off' as const)
        : server === null
          ? ('starting' as const)
          : server instanceof Error
            ? { failed: server.reason }
            : ('ready' as const),
  }
}
export type HealthReport = Awaited<ReturnType<typeof healthReport>>

export async function healthRoutes(app: FastifyInstance, options: HealthOptions & { access: EditorAccess }) {
  app.get(HEALTH_PATH, async (request, reply) => {
    reply.header('Cache-Control', 'no-store').header('Vary', 'Authorization, Cookie')
    const access = await options.access.check(request, reply)
    if (access === 'answered') return reply
    const report = await healthReport(options)
    const { ok, live, building, queued } = report
    return reply
      .code(report.ok ? 200 : 503)
      .send(access === 'editor' ? report : { ok, live, building, queued })
  })
}
