/**
 * What `npm start` puts live, and when. A build goes live only through the publisher's own
 * path (the publish gate, then the swap), at start too:
 * - a live build on disk is served at once; after the server listens, a finished export
 *   left in `out/` that the store does not hold (`npm run build`, or a build that finished
 *   after the publisher was killed) is checked and put live if it passes, and publishes the
 *   journal holds as accepted and not done are built again;
 * - with nothing live, that check (or, when it fails or there is no export, a build) runs
 *   before the server listens, as visitors would get nothing but 503 meanwhile. That check
 *   is of links and assets only: the HTML checker's Java takes 6-15 s to start (a start on
 *   a fresh folder would take 18 s instead of 2-3 s); with nothing live there is no older
 *   site to keep instead, only none; and a fresh build of the same code makes the same
 *   HTML. The next publish's build gets the whole gate; `npm run audit:fast` checks every
 *   page's HTML.
 * No error on that path stops the start while something is live: it is logged, and the
 * live build is served.
 */
import type { Logger } from 'pino'
import type { BuildStore } from './build-store.ts'
import type { Publisher } from './publisher.ts'

export type StartOptions = {
  store: BuildStore
  publisher: Pick<Publisher, 'adopt' | 'resume' | 'request' | 'idle' | 'status'>
  /** Where `npm run build` leaves a finished export (`out/`). */
  exportDir: string
  log: Logger
}

/**
 * Before the server listens: with nothing live, checks the export in `exportDir` (and puts
 * it live) or builds, and waits for it.
 * @returns the live build's id, and `afterListening`: the work left for after the server
 *   listens (resolves when it is done; never rejects)
 * @throws Error when nothing is live and nothing could be made live (the reason: the
 *   gate's, the build's)
 */
export async function prepareStart({ store, publisher, exportDir, log }: StartOptions): Promise<{
  live: string
  afterListening: () => Promise<void>
}> {
  const live = await store.liveId()
  if (live)
    return {
      live,
      afterListening: async () => {
        await publisher.adopt(exportDir)
        await publisher.resume()
      },
    }
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
  // A build of pending publishes (resume) may still run: it goes live when done, as any.
  return { live: now, afterListening: async () => {} }
}
