/** Serves a build as `npm start` does (`server/main.ts` on a builds folder of its own and a free port of 127.0.0.1), for audits, benches and tests. */
import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { BuildStore } from '../../server/build-store.ts'
import { HEALTH_PATH } from '../../lib/publisher-routes.ts'
import { servesLiveBuild } from '../publisher-client.ts'

/** A running server and the build it serves. */
export type ServedSite = {
  /** e.g. `http://127.0.0.1:41234` */
  origin: string
  /** the live build's folder (a copy of `out/`, stable while `out/` is rebuilt) */
  buildDir: string
  /** Stops the server (SIGTERM) and removes its temp folder. */
  stop: () => Promise<void>
  /** Everything the server wrote to stdout and stderr so far (its log), also passed through. */
  output: () => string
  /** The server's process id (its builds are child processes of their own). */
  pid: number
  /** The process id of its preview process (server/preview-child.ts), when one runs now. */
  previewPid: () => number | undefined
}

/** Every process's parent, by process id (Linux /proc), read now. */
function parents(): Map<number, number> {
  const parentOf = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // The parent's pid is the second field after the command's closing bracket.
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    } catch {
      // that process ended meanwhile
    }
  }
  return parentOf
}

/**
 * Every process below `pid` now, children and their children (Linux /proc): a publisher's
 * builds, its HTML checker, its preview process.
 */
export function descendantsOf(pid: number): number[] {
  const parentOf = parents()
  const found: number[] = []
  const walk = (parent: number) => {
    for (const [child, of] of parentOf)
      if (of === parent) {
        found.push(child)
        walk(child)
      }
  }
  walk(pid)
  return found
}

/**
 * The preview process a publisher runs now: its child whose command line names
 * server/preview-child.ts (Linux /proc).
 * @param publisher the publisher's process id
 */
export function previewPidOf(publisher: number): number | undefined {
  for (const [pid, parent] of parents()) {
    if (parent !== publisher) continue
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('preview-child')) return pid
    } catch {
      // that process ended meanwhile
    }
  }
  return undefined
}

/** A TCP port nobody listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}

/**
 * Starts `node server/main.ts` on the export in `exportDir` and waits for `/healthz`.
 * Used by the audits, the benchmarks and the browser tests that build.
 * @param exportDir a complete export (with `.build.json`), default `out/`; without one the server builds first
 * @param options timeoutMs: how long to wait for the server (default 60 s); env: more
 *   environment for the server (e.g. `SANITY_WEBHOOK_SECRET`, `LOCAL_DATASET`); siteDir: a
 *   builds folder of the caller's, kept by `stop` (a restart on the same builds and
 *   journal), instead of a fresh one; cwd: the folder the server runs in, as the folder
 *   `npm start` runs in (its preview process renders the app found there and Next reads
 *   the `.env*` files there), default this one
 * @throws Error when the server exits or does not answer in time
 */
export async function serveExport(
  exportDir = path.resolve('out'),
  {
    timeoutMs = 60_000,
    env = {},
    siteDir: givenSiteDir,
    cwd,
  }: { timeoutMs?: number; env?: Record<string, string>; siteDir?: string; cwd?: string } = {},
): Promise<ServedSite> {
  const temp = await mkdtemp(path.join(os.tmpdir(), 'audit-site-'))
  const siteDir = givenSiteDir ?? path.join(temp, 'site')
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const child: ChildProcess = spawn(process.execPath, ['server/main.ts'], {
    cwd,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SITE_DIR: siteDir,
      OUT_DIR: exportDir,
      INBOX_FILE: path.join(temp, 'inbox.ndjson'),
      LOG_LEVEL: 'warn',
      // No webhook unless the caller asks for one.
      SANITY_WEBHOOK_SECRET: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8')
    process.stdout.write(chunk)
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8')
    process.stderr.write(chunk)
  })
  let exited: string | null = null
  const gone = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = `server exited (${signal ?? code})`
      resolve()
    }),
  )
  const stop = async () => {
    if (!exited) {
      child.kill('SIGTERM')
      await gone
    }
    await rm(temp, { recursive: true, force: true })
  }
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (await servesLiveBuild(origin)) break
    if (exited || Date.now() > deadline) {
      await stop()
      throw new Error(
        exited ?? `the server did not answer ${origin}${HEALTH_PATH} within ${timeoutMs / 1000} s`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  const buildDir = await new BuildStore(siteDir).liveDir()
  if (!buildDir) {
    await stop()
    throw new Error('the server has no live build')
  }
  const pid = child.pid!
  return { origin, buildDir, stop, output: () => output, pid, previewPid: () => previewPidOf(pid) }
}
