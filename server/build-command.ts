/**
 * Runs one site build as a child process (by default `npm run build`'s script,
 * scripts/build.ts, which writes a complete export with `.build.json` into `out/`)
 * and says how it went.
 * The child runs under the process guard (child-lifetime.ts), which leads a process group
 * of its own: a timeout or a shutdown kills all of it, and so does the publisher's end,
 * however it ends (SIGKILL included).
 */
import { spawn } from 'node:child_process'
import { tiedToThisProcess } from './child-lifetime.ts'

/** How to run a build. */
export type BuildCommand = {
  /** Program and arguments, e.g. `['npm', 'run', 'build']`. */
  argv: string[]
  /** Working directory (the repository). */
  cwd: string
  /** Environment of the child (default: this process's). */
  env?: NodeJS.ProcessEnv
  /** Kill the build after this many ms (default 10 minutes). */
  timeoutMs?: number
  /** Aborting kills the build (e.g. when the server shuts down). */
  signal?: AbortSignal
  /**
   * Called once, as soon as the build prints this line (e.g. the build's
   * CONTENT_CHECKED_LINE: past its quick failures). Not called when it never does.
   */
  milestone?: { line: string; reached: () => void }
}

/** The result of one build command. */
export type CommandOutcome =
  { ok: true; durationMs: number } | { ok: false; durationMs: number; error: string }

/** Keep at most this much of a build's output in memory, for the error message. */
const MAX_OUTPUT = 64 * 1024

/** A line of a stack trace (`    at fn (file:1:2)`), or Node's version after one: where, never why. */
const STACK_FRAME = /^\s+at\s|^Node\.js v\d/
/** A content check message: names the document and field. */
const CONTENT_LINE = /Invalid content:[^\n]*/
/** A line naming a file and line, then the problem: `dataset.ndjson:20: not valid JSON`. */
const FILE_LINE = /(?:^|\s)[\w@./\\-]+:\d+(?::\d+)?: \S/
/** An error's message as Node prints it: `Error: …`, `TypeError: …`, `Error [ERR_X]: …`. */
const ERROR_LINE = /^(?:\[cause\]: )?[A-Z]?\w*Error(?: \[\w+\])?: \S/
/** A message or error code saying the disk has no space left. */
const DISK_FULL = /ENOSPC|no space left on device/i

/** The words a reason starts with when the disk is full, whoever noticed it. */
export const DISK_FULL_PREFIX = 'the disk is full: '

/**
 * The reason a build failed, for people: the lines of its output that name the cause, each
 * once, in order: content errors (`Invalid content: document "x", field "y": …`, which
 * publish-status.ts shows each document's editor), lines naming a file and line
 * (`dataset.ndjson:20: not valid JSON`) and error messages (`Error: …`). Stack frames
 * (`    at …`) are dropped: a stack's tail says where a build stopped, not why. Without any
 * such line, the last 5 lines of output. A full disk says so first (`DISK_FULL_PREFIX`).
 * @param output the build's stdout and stderr, as collected
 * @param exit how the build ended, e.g. `build exited with code 1`; left out when every
 *   line is a content error (the lines say it all, and each names its document)
 * @returns one problem a line
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

/**
 * An error's message: duck-typed, since an error from another realm (a vm context, a
 * worker) is no `instanceof Error` here; else the thrown value as text.
 */
export function messageOf(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message
  return typeof message === 'string' ? message : String(error)
}

/**
 * A failed step's error as one reason: `<step>: <message>`, after `DISK_FULL_PREFIX` when
 * the disk is full (ENOSPC), so the operator reads that first.
 * @param step what was being done, e.g. `removing the previous export`
 * @param error whatever the step threw
 */
export function stepFailure(step: string, error: unknown): string {
  const message = messageOf(error)
  const code = (error as NodeJS.ErrnoException | null)?.code
  const reason = `${step}: ${message}`
  return code === 'ENOSPC' || DISK_FULL.test(message) ? `${DISK_FULL_PREFIX}${reason}` : reason
}

/**
 * Runs the build command to its end.
 * @returns ok, or the reason it failed (non-zero exit, killed by a signal, timeout, spawn error); never throws
 */
export function runBuildCommand(command: BuildCommand): Promise<CommandOutcome> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  return new Promise((resolve) => {
    const [program, ...args] = command.argv
    if (!program) return resolve({ ok: false, durationMs: 0, error: 'no build command' })
    const tied = tiedToThisProcess([program, ...args], { tree: true })
    const child = spawn(tied.argv[0]!, tied.argv.slice(1), {
      cwd: command.cwd,
      env: command.env ?? process.env,
      stdio: [tied.stdin, 'pipe', 'pipe'],
      detached: tied.detached,
    })
    let output = ''
    let milestone = command.milestone
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-MAX_OUTPUT)
      // A whole line: the build's own, not a part of a longer one.
      if (milestone && `\n${output}`.includes(`\n${milestone.line}\n`)) {
        milestone.reached()
        milestone = undefined
      }
    }
    child.stdout!.on('data', collect)
    child.stderr!.on('data', collect)
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL')
      } catch {
        // already gone
      }
    }
    let timedOut = false
    const timer = setTimeout(
      () => {
        timedOut = true
        killGroup()
      },
      command.timeoutMs ?? 10 * 60_000,
    )
    command.signal?.addEventListener('abort', killGroup, { once: true })
    child.on('error', (error) => {
      clearTimeout(timer)
      resolve({ ok: false, durationMs: elapsed(), error: `could not start the build: ${error.message}` })
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      command.signal?.removeEventListener('abort', killGroup)
      if (code === 0) return resolve({ ok: true, durationMs: elapsed() })
      const exit = timedOut
        ? `timed out after ${command.timeoutMs ?? 600_000} ms`
        : signal
          ? `killed by ${signal}`
          : `exited with code ${code}`
      resolve({ ok: false, durationMs: elapsed(), error: failureReason(output, `build ${exit}`) })
    })
  })
}
