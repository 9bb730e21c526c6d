/**
 * Runs one command and ends all of it when the program that started it ends, however that
 * one ends (SIGKILL included): `node server/process-guard.ts <program> [args…]`.
 * - Started as the leader of a process group of its own (`spawn(…, { detached: true })`),
 *   it runs the command in that same group: the command and everything it starts (a build's
 *   `next build` and its workers) share the group.
 * - Its stdin is a pipe its parent holds and never writes to. When the parent ends, the
 *   kernel closes the parent's end; the guard reads the end of the file and kills its whole
 *   group with SIGKILL, itself included. A pipe works on any Unix and needs no tool; the
 *   kernel's parent-death signal would kill the guard before it could end its group.
 * - SIGTERM, SIGINT and SIGHUP sent to the guard go on to the command (a graceful stop).
 * - It exits as the command did: the same exit code, or the same signal.
 * Refuses to run (exit 2, saying why) when it leads no process group of its own: killing
 * its group would then reach processes that are not its command's.
 */
import { spawn } from 'node:child_process'

const [program, ...args] = process.argv.slice(2)

/** Whether a process group with this process's id exists: it leads one. */
function leadsAGroup(): boolean {
  try {
    process.kill(-process.pid, 0)
    return true
  } catch {
    return false
  }
}

if (!program) {
  console.error('process guard: no command given (usage: process-guard.ts <program> [args…])')
  process.exit(2)
}
if (!leadsAGroup()) {
  console.error(
    'process guard: it must lead a process group of its own (spawn it with detached: true), or ending the command would end other processes',
  )
  process.exit(2)
}

const endEverything = () => process.kill(-process.pid, 'SIGKILL')

// Listening before the command starts: a parent that already ended is seen all the same.
process.stdin.on('end', endEverything)
process.stdin.on('error', endEverything)
process.stdin.resume()

const child = spawn(program, args, { stdio: ['ignore', 'inherit', 'inherit'] })
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal))
child.on('error', (error) => {
  console.error(`process guard: could not start ${program}: ${error.message}`)
  process.exit(127)
})
child.on('exit', (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal)
    process.kill(process.pid, signal)
  }
  process.exit(code ?? 1)
})
