/**
 * Child processes that end with the publisher, however the publisher ends: a normal exit,
 * a crash, or SIGKILL (which no handler of its own sees). Without this, a killed
 * publisher left the Nu HTML checker's JVM running (about 240 MB each time) and a running
 * build went on to the end, with `next build` and its workers.
 * Two ways, both Linux's and util-linux's or plain Unix:
 * - The kernel's parent-death signal (`setpriv --pdeathsig KILL`, util-linux), for a
 *   command that is one process (the JVM): the kernel kills it when the publisher ends.
 *   It is tied to the thread that started it: the publisher spawns from its main thread.
 * - The guard (server/process-guard.ts), for a command that is a tree of processes (a
 *   build) and wherever `setpriv` is missing: a small Node process that leads the command's
 *   process group and kills the whole group when the pipe from the publisher closes.
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'

/** The guard's program. */
export const PROCESS_GUARD = path.join(import.meta.dirname, 'process-guard.ts')

/** How a command is tied to the publisher's life. */
export type Tie = 'pdeathsig' | 'guard'

/** What to spawn, and how, so that a command ends with this process. */
export type TiedCommand = {
  /** Program and arguments to spawn in place of the command's. */
  argv: string[]
  /**
   * Spawn it as a process group of its own (the guard leads one); a hard stop then kills
   * the group (`process.kill(-pid, 'SIGKILL')`), never the pid alone.
   */
  detached: boolean
  /** The guard's stdin must be a pipe this process holds: its closing is the signal. */
  stdin: 'pipe' | 'ignore'
  tie: Tie
}

let pdeathsigWorks: boolean | undefined

/**
 * Whether util-linux's `setpriv --pdeathsig` runs here (found on the PATH, and the kernel
 * allows the parent-death signal). Asked once.
 */
export function parentDeathSignalAvailable(): boolean {
  pdeathsigWorks ??=
    spawnSync('setpriv', ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore' }).status === 0
  return pdeathsigWorks
}

/**
 * The command to spawn so that `argv` ends when this process ends.
 * @param argv program and arguments
 * @param options.tree the command starts processes of its own that must end too (a build):
 *   always under the guard; otherwise (one process, the JVM) the parent-death signal where
 *   `setpriv` runs, the guard where it does not
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
