/** Serves a build as `npm start` does (`server/main.ts` on a builds folder of its own and a free port of 127.0.0.1), for audits, benches and tests. */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { BuildStore } from '../../server/publishing/build-store.ts'
import { freeLoopbackPort } from '../../server/publishing/nu-html-checker.ts'
import { HEALTH_PATH } from '../../lib/publisher-routes.ts'
import { servesLiveBuild } from '../publisher-client.ts'

/** The children of `pid` now (`pgrep -P`), those whose command line matches `pattern` when given. */
const childrenOf = (pid: number, pattern?: string): number[] =>
  spawnSync('pgrep', ['-P', String(pid), ...(pattern ? ['-f', pattern] : [])], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean)
    .map(Number)

/** Every process below `pid` now, at any depth: a publisher's builds, HTML checker, preview process. */
export const descendantsOf = (pid: number): number[] =>
  childrenOf(pid).flatMap((child) => [child, ...descendantsOf(child)])

export type ServedSite = Awaited<ReturnType<typeof serveExport>>

/**
 * Starts `node server/main.ts` on a complete export and waits (default 60 s) until it serves a live build.
 * `env`: more environment; `siteDir`: a builds folder of the caller's, kept by `stop`; `cwd`: the folder it runs in
 * (its preview renders the app there, Next reads its `.env*`). Returns its `origin`, the live `buildDir` (a copy of
 * the export), `stop()` (SIGTERM, temp folder removed), its log so far (`output()`, also passed through), its `pid`
 * and its preview process's (`previewPid()`, when one runs). Throws when it exits or does not answer in time.
 */
export async function serveExport(
  exportDir = path.resolve('out'),
  {
    timeoutMs = 60_000,
    env = {},
    siteDir: givenSiteDir,
    cwd,
  }: { timeoutMs?: number; env?: Record<string, string>; siteDir?: string; cwd?: string } = {},
) {
  const temp = await mkdtemp(path.join(os.tmpdir(), 'audit-site-'))
  const siteDir = givenSiteDir ?? path.join(temp, 'site')
  const port = await freeLoopbackPort()
  const origin = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, ['server/main.ts'], {
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
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const)
    from.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
      to.write(chunk)
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
  for (const deadline = Date.now() + timeoutMs; !(await servesLiveBuild(origin));) {
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
  return {
    origin,
    buildDir,
    stop,
    output: () => output,
    pid,
    previewPid: (): number | undefined => childrenOf(pid, 'preview-child')[0],
  }
}
