/**
 * Children that end with the publisher however it ends, SIGKILL included (docs/publishing.md). The
 * parent-death signal is tied to the spawning thread: the publisher spawns from its main thread.
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'

export const PROCESS_GUARD = path.join(import.meta.dirname, 'process-guard.ts')

export type Tie = 'pdeathsig' | 'guard'

export type TiedCommand = {
  argv: string[]
  /** A process group of its own: a hard stop kills the group (`process.kill(-pid, 'SIGKILL')`). */
  detached: boolean
  /** The guard's stdin is a pipe this process holds: its closing is the signal. */
  stdin: 'pipe' | 'ignore'
  tie: Tie
}

let pdeathsigWorks: boolean | undefined

/** Whether util-linux's `setpriv --pdeathsig` runs here; asked once. */
export function parentDeathSignalAvailable(): boolean {
  pdeathsigWorks ??=
    spawnSync('setpriv', ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore' }).status === 0
  return pdeathsigWorks
}

/**
 * The command to spawn so that `argv` ends when this process ends.
 * @param options.tree it starts processes of its own (a build): the guard; else `setpriv` where it runs
 * @param options.node the Node binary that runs the guard (default: this process's)
 */
export function tiedToThisProcess(
  argv: readonly string[],
  options: { tree: boolean; node?: string },
): TiedCommand {
  if (!options.tree && parentDeathSignalAvailable())
    return {
      argv: ['setpriv', '--pdeathsig', 'KILL', '--', ...argv],
      detached: false,
      stdin: 'ignore',
      tie: 'pdeathsig',
    }
  return {
    argv: [options.node ?? process.execPath, PROCESS_GUARD, ...argv],
    detached: true,
    stdin: 'pipe',
    tie: 'guard',
  }
}
