/** What the benches and the doors audit share: runs and their median, builds timed and kept, datasets, a publisher's preview. */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { StoredDocument } from '../../lib/content/source.ts'
import { PREVIEW_ENABLE_PATH } from '../../lib/publisher-routes.ts'
import { readHealth, sendWebhook, waitUntilSettled } from '../publisher-client.ts'

/** A measure's tables by title, rows by label (console.table's); the rows of MISSED name the targets it missed. */
export type Tables = Record<string, Record<string, Record<string, unknown>>>
export const MISSED = 'Missed targets'

/** The webhook secret the benches' publishers start with. */
export const SECRET = 'bench-webhook-secret-0123456789abcdef012345'

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Bytes as KiB with one decimal, for the tables. */
export const kib = (bytes: number) => Math.round(bytes / 102.4) / 10

/** ms a promise takes. */
export async function timed(step: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  await step()
  return performance.now() - started
}

/**
 * Runs `npm run build` (with more environment), after removing `remove` (e.g. `.next` for a cold build).
 * @returns ms it took
 */
export function timeBuild(env: Record<string, string> = {}, remove: readonly string[] = []): number {
  for (const folder of remove) rmSync(folder, { recursive: true, force: true })
  const started = performance.now()
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', env: { ...process.env, ...env } })
  if (result.status !== 0)
    throw new Error(`npm run build failed (${result.signal ?? `exit ${result.status}`})`)
  return performance.now() - started
}

/** @throws Error unless out/ holds a complete build */
export function requireBuild() {
  if (!existsSync('out/.build.json')) throw new Error('out/ holds no complete build: run npm run build first')
}

/** Keeps the complete build in out/ aside (a publisher moves each build out of it); `restore()` puts it back and removes the copy. */
export function keepExport() {
  requireBuild()
  const kept = mkdtempSync(path.join(os.tmpdir(), 'bench-export-'))
  cpSync('out', kept, { recursive: true })
  return () => {
    rmSync('out', { recursive: true, force: true })
    cpSync(kept, 'out', { recursive: true })
    rmSync(kept, { recursive: true, force: true })
  }
}

/**
 * Writes documents as an NDJSON dataset file whole (renamed over it): a preview never reads half a file.
 * @param lines more documents, each already a line of JSON
 */
export function writeDataset(file: string, documents: StoredDocument[], lines: string[] = []): void {
  writeFileSync(
    `${file}.partial`,
    [...documents.map((doc) => JSON.stringify(doc)), ...lines].join('\n') + '\n',
  )
  renameSync(`${file}.partial`, file)
}

/** Publishes a document signed with the bench's secret, as Sanity does; the HTTP status. */
export const publish = (base: string, doc: { _id: string; _type: string }) => sendWebhook(base, SECRET, doc)

let delivery = 0
/** One review published, timed from the webhook to its build live (ms); throws when refused or nothing went live. */
export async function publishToLive(base: string): Promise<number> {
  const before = (await readHealth(base, SECRET)).live?.id
  const started = performance.now()
  if ((await publish(base, { _id: `bench-${delivery++}`, _type: 'review' })) !== 202)
    throw new Error('webhook refused')
  if ((await waitUntilSettled(base, SECRET)).live?.id === before) throw new Error('the build did not go live')
  return performance.now() - started
}

/** Waits until the publisher reports its preview ready, through restarts; throws after 5 minutes. */
export async function previewReady(base: string, webhookSecret: string): Promise<void> {
  for (const until = Date.now() + 300_000; ; await sleep(100)) {
    if ((await readHealth(base, webhookSecret)).preview === 'ready') return
    if (Date.now() > until) throw new Error('the preview was not ready within 300 s')
  }
}

/** Opens a preview session as an editor does (`/preview/enable` with the secret); its cookie, `name=value`. */
export async function previewCookie(base: string, secret: string): Promise<string> {
  const answer = await fetch(`${base}${PREVIEW_ENABLE_PATH}?secret=${encodeURIComponent(secret)}`, {
    redirect: 'manual',
  })
  const cookie = answer.headers.getSetCookie()[0]?.split(';')[0]
  if (answer.status !== 303 || !cookie)
    throw new Error(`/preview/enable answered ${answer.status}, not a session`)
  return cookie
}
