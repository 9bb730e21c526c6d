/**
 * What `npm start` puts live, and when, always through the publish gate: with nothing live,
 * before the server listens; otherwise after (docs/publishing.md).
 */
import type { Logger } from 'pino'
import type { BuildStore } from './publishing/build-store.ts'
import type { Publisher } from './publishing/publisher.ts'

/**
 * Before the server listens: with nothing live, puts the export in `exportDir` live through the gate or builds.
 * @returns the live build's id, and `afterListening`: the work left for then (never rejects)
 * @throws Error when nothing is live and nothing could be made live, with the gate's or the build's reason
 */
export async function prepareStart({
  store,
  publisher,
  exportDir,
  log,
}: {
  store: BuildStore
  publisher: Pick<Publisher, 'adopt' | 'resume' | 'request' | 'idle' | 'status'>
  exportDir: string
  log: Logger
}): Promise<{ live: string; afterListening: () => Promise<void> }> {
  const live = await store.liveId()
  const afterListening = async () => {
    await publisher.adopt(exportDir)
    await publisher.resume()
  }
  if (live) return { live, afterListening }
  const adopted = await publisher.adopt(exportDir, true)
  if (adopted === 'live')
    log.info(
      { event: 'startup', gate: 'links' },
      'nothing was live: the finished build in the export folder passed the links check before serving (its HTML is not checked)',
    )
  await publisher.resume()
  if (adopted !== 'live') {
    const { building, queued } = publisher.status()
    log.info(
      { event: 'startup', export: adopted },
      building || queued
        ? 'no build live yet: waiting for the build of the pending publishes'
        : 'no build live yet: building the site first',
    )
    if (!building && !queued) publisher.request({ reason: 'startup' })
    await publisher.idle()
  }
  const now = await store.liveId()
  if (!now)
    throw new Error(
      `nothing to serve: no build is live and the first build failed: ${publisher.status().lastError?.message ?? 'no reason given'}`,
    )
  return { live: now, afterListening: async () => {} }
}
