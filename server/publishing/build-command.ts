/** Runs one site build (scripts/build.ts by default) as a child process group that ends with the publisher. */
import { spawn } from 'node:child_process'
import { tiedToThisProcess } from '../child-lifetime.ts'

/** How to run a build: `timeoutMs` defaults to 10 minutes; `milestone.reached` is called once when the build prints `line`. */
export type BuildCommand = {
  argv: string[]
  cwd: string
  env?: NodeJS.ProcessEnv
  timeoutMs?: number
  signal?: AbortSignal
  milestone?: { line: string; reached: () => void }
}

const MAX_OUTPUT = 64 * 1024

// Stack frames and Node's version line say where a build stopped, never why.
const STACK_FRAME = /^\s+at\s|^Node\.js v\d/
const CONTENT_LINE = /Invalid content:[^\n]*/
const FILE_LINE = /(?:^|\s)[\w@./\\-]+:\d+(?::\d+)?: \S/
const ERROR_LINE = /^(?:\[cause\]: )?[A-Z]?\w*Error(?: \[\w+\])?: \S/
const DISK_FULL = /ENOSPC|no space left on device/i

/** The words a reason starts with when the disk is full, whoever noticed it. */
export const DISK_FULL_PREFIX = 'the disk is full: '

/**
 * The reason a build failed, one problem a line: its content errors, file:line messages and
 * `Error: …` lines, each once (else its last 5 lines), after `exit` unless all are content
 * errors, and after `DISK_FULL_PREFIX` when the disk is full.
 */
export function failureReason(output: string, exit: string): string {
  const lines = output
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() && !STACK_FRAME.test(line))
  const causes = new Set<string>()
  for (const line of lines) {
    const content = CONTENT_LINE.exec(line)?.[0]
    if (content) causes.add(content.trim())
    else if (FILE_LINE.test(line) || ERROR_LINE.test(line.trim())) causes.add(line.trim())
  }
  const named = [...causes]
  const onlyContent = named.length > 0 && named.every((line) => CONTENT_LINE.test(line))
  const body = named.length ? named : lines.slice(-5).map((line) => line.trim())
  const reason = onlyContent ? body.join('\n') : body.length ? `${exit}: ${body.join('\n')}` : exit
  return DISK_FULL.test(output) && !onlyContent ? `${DISK_FULL_PREFIX}${reason}` : reason
}

/** An error's message, duck-typed (an error from a vm context or worker is no `instanceof Error`). */
export function messageOf(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message
  return typeof message === 'string' ? message : String(error)
}

/** `<step>: <message>`, after `DISK_FULL_PREFIX` when the disk is full, so the operator reads that first. */
export function stepFailure(step: string, error: unknown): string {
  const message = messageOf(error)
  const code = (error as NodeJS.ErrnoException | null)?.code
  const reason = `${step}: ${message}`
  return code === 'ENOSPC' || DISK_FULL.test(message) ? `${DISK_FULL_PREFIX}${reason}` : reason
}

/** Runs the build command to its end; resolves ok or the reason it failed, never rejects. */
export function runBuildCommand(
  command: BuildCommand,
): Promise<{ ok: true; durationMs: number } | { ok: false; durationMs: number; error: string }> {
  const { timeoutMs = 10 * 60_000, signal } = command
  const started = performance.now()
  return new Promise((resolve) => {
    if (!command.argv[0]) return resolve({ ok: false, durationMs: 0, error: 'no build command' })
    const tied = tiedToThisProcess(command.argv, { tree: true })
    const child = spawn(tied.argv[0]!, tied.argv.slice(1), {
      cwd: command.cwd,
      env: command.env ?? process.env,
      stdio: [tied.stdin, 'pipe', 'pipe'],
      detached: tied.detached,
    })
    let output = ''
    let milestone = command.milestone
    for (const stream of [child.stdout!, child.stderr!])
      stream.on('data', (chunk: Buffer) => {
        output = (output + chunk.toString('utf8')).slice(-MAX_OUTPUT)
        if (milestone && `\n${output}`.includes(`\n${milestone.line}\n`)) {
          milestone.reached()
          milestone = undefined
        }
      })
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL')
      } catch {}
    }
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      killGroup()
    }, timeoutMs)
    signal?.addEventListener('abort', killGroup, { once: true })
    const end = (error?: string) => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', killGroup)
      const durationMs = Math.round(performance.now() - started)
      resolve(error === undefined ? { ok: true, durationMs } : { ok: false, durationMs, error })
    }
    child.on('error', (error) => end(`could not start the build: ${error.message}`))
    child.on('close', (code, killedBy) => {
      if (code === 0) return end()
      const exit = timedOut
        ? `timed out after ${timeoutMs} ms`
        : killedBy
          ? `killed by ${killedBy}`
          : `exited with code ${code}`
      end(failureReason(output, `build ${exit}`))
    })
  })
}
