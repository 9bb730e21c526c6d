/**
 * Waiting, in a preview page, for the publisher's next preview build: when an editor
 * changes a draft in the Studio, the page reloads once the build that holds the change
 * is ready (the publisher rebuilds on each draft webhook).
 */

/** What the publisher's `/healthz` says about builds (server/health.ts); the fields read here. */
type Health = {
  building: boolean
  queued: boolean
  preview: { lastBuild: { id: string } | null } | null
}

/** The publisher's status address (server/health.ts). */
export const HEALTH_PATH = '/healthz'

/**
 * @throws Error naming what it expected when the answer is not the publisher's `/healthz`
 *   with preview on (e.g. the page is not served by the publisher)
 */
function readHealth(body: unknown): Health {
  const health = body as Partial<Health> | null
  if (
    typeof health?.building !== 'boolean' ||
    typeof health.queued !== 'boolean' ||
    typeof health.preview !== 'object' ||
    health.preview === null
  )
    throw new Error(`${HEALTH_PATH} does not report preview builds ({ building, queued, preview: {...} })`)
  return health as Health
}

/**
 * Resolves when a preview build newer than the current one is ready and nothing else is
 * building or queued, or after `timeoutMs` (the editor can still reload by hand).
 * @param fetchHealth GETs `/healthz` and returns its JSON
 * @param options intervalMs between asks (default 1500), timeoutMs (default 180 s),
 *   sleep (tests)
 * @returns 'rebuilt', or 'timeout'
 * @throws Error when `/healthz` is not the publisher's with preview on (see readHealth)
 */
export async function waitForPreviewBuild(
  fetchHealth: () => Promise<unknown>,
  {
    intervalMs = 1500,
    timeoutMs = 180_000,
    sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
  }: { intervalMs?: number; timeoutMs?: number; sleep?: (ms: number) => Promise<void> } = {},
): Promise<'rebuilt' | 'timeout'> {
  const before = readHealth(await fetchHealth()).preview?.lastBuild?.id
  for (let waited = 0; waited < timeoutMs; waited += intervalMs) {
    await sleep(intervalMs)
    const now = readHealth(await fetchHealth())
    if (now.preview?.lastBuild?.id !== before && !now.building && !now.queued) return 'rebuilt'
  }
  return 'timeout'
}
