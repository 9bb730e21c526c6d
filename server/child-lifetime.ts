/**
 * Children that end with the publisher however it ends, SIGKILL included (docs/publishing.md). The
 * parent-death signal is tied to the spawning thread: the publisher spawns from its main thread.
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'

export const PROCESS_GUARD = path.join(import.meta.dirname, 'process-guard.ts')

let pdeathsigWorks: boolean | undefined

/** Whether util-linux's `setpriv --pdeathsig` runs here; asked once. */
export const parentDeathSignalAvailable = (): boolean =>
  (pdeathsigWorks ??=
    spawnSync('setpriv', ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore' }).status === 0)

/**
 * The command to spawn so that `argv` ends when this process ends: under `setpriv` where it runs,
 * unless it starts processes of its own (`tree`, a build); else under the guard, which leads a process
 * group (`detached`: a hard stop kills the group) and holds a pipe (`stdin`) whose closing is the signal.
 */
export function tiedToThisProcess(argv: readonly string[], { tree }: { tree: boolean }) {
  return !tree && parentDeathSignalAvailable()
    ? { argv: ['setpriv', '--pdeathsig', 'KILL', '--', ...argv], detached: false, stdin: 'ignore' as const }
    : { argv: [process.execPath, PROCESS_GUARD, ...argv], detached: true, stdin: 'pipe' as const }
}
