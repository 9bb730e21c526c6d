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

/**
 * The reason a build failed, for people: content errors name the document and field
 * (`Invalid content: document "x", field "y": …`, one line each, every one the build
 * printed, each once); otherwise the last lines of output.
 */
export function failureReason(output: string, exit: string): string {
  const content = [...new Set(output.match(/Invalid content:[^\n]*/g)?.map((line) => line.trim()))]
  if (content.length) return content.join('\n')
  const tail = output.trim().split('\n').slice(-5).join('\n')
  return tail ? `${exit}: ${tail}` : exit
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
