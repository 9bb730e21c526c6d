/**
 * `node server/process-guard.ts <program> [args…]`, spawned detached: runs the command in its own
 * process group and SIGKILLs the group once its stdin pipe from the parent closes (a parent-death
 * signal would kill the guard before it could end the group). Passes on SIGTERM, SIGINT and SIGHUP,
 * and exits as the command did.
 */
import { spawn } from 'node:child_process'

const [program, ...args] = process.argv.slice(2)
const refuse = (message: string) => {
  console.error(`process guard: ${message}`)
  return process.exit(2)
}
if (!program) refuse('no command given (usage: process-guard.ts <program> [args…])')
try {
  process.kill(-process.pid, 0)
} catch {
  refuse(
    'it must lead a process group of its own (spawn it with detached: true), or ending the command would end other processes',
  )
}

const endEverything = () => process.kill(-process.pid, 'SIGKILL')
// Before the command starts: a parent that already ended is seen all the same.
process.stdin.on('end', endEverything).on('error', endEverything).resume()

const child = spawn(program!, args, { stdio: ['ignore', 'inherit', 'inherit'] })
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
