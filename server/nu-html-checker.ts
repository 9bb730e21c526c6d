/**
 * The W3C Nu HTML checker (npm `vnu-jar`, Java 17) over a build's HTML files,
 * errors only. Two ways to run it, the same messages from both:
 * - `checkHtml`: one `java -jar vnu.jar` per call, for callers that run once
 *   (`npm run audit:fast` over every page of a build, the bench). Most of its time is
 *   the JVM and the checker starting.
 * - `startHtmlChecker`: the checker's HTTP service, started once on a loopback port and
 *   reused, for the publisher's gate (the pages a publish changed, before the build goes live).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import path from 'node:path'
import { tiedToThisProcess } from './child-lifetime.ts'

/** One error the checker reports. */
export type HtmlError = { file: string; line?: number; column?: number; message: string; extract?: string }

type VnuMessage = {
  type: string
  subType?: string
  url?: string
  lastLine?: number
  firstColumn?: number
  message: string
  extract?: string
}

/**
 * The checker also runs the W3C CSS validator over <style> elements, and that engine
 * predates CSS that every current browser ships (@property, @layer, nesting, margin-trim):
 * its "CSS:" messages on the inline Tailwind stylesheet (next.config inlineCss) are all
 * false. The HTML is what this check is for; Lightning CSS parses the stylesheet at build.
 * vnu's `--filterpattern` drops a message whose whole text matches (Java `matches()`,
 * `.` not crossing a line end); `CSS_FILTER` is the same test for the service's messages.
 */
const CSS_FILTER_PATTERN = 'CSS: .*'
const CSS_FILTER = new RegExp(`^(?:${CSS_FILTER_PATTERN})$`)

/**
 * The messages both ways of running the checker keep: errors (fatal ones too) and the
 * checker's own (`non-document-error`), never info or warnings (`--errors-only`), never
 * the CSS validator's (`CSS_FILTER`).
 */
function errorsOf(messages: readonly VnuMessage[], fileOf: (message: VnuMessage) => string): HtmlError[] {
  return messages
    .filter(
      (message) =>
        message.type === 'error' || message.subType === 'fatal' || message.type === 'non-document-error',
    )
    .filter((message) => !CSS_FILTER.test(message.message))
    .map((message) => ({
      file: fileOf(message),
      line: message.lastLine,
      column: message.firstColumn,
      message: message.message,
      extract: message.extract,
    }))
}

/** Whether Java runs here (the checker needs it); the publisher asks once at startup. */
export function javaAvailable(): boolean {
  return spawnSync(process.env.JAVA ?? 'java', ['-version'], { stdio: 'ignore' }).status === 0
}

/** Path of vnu.jar inside node_modules. */
export function vnuJarPath(): string {
  return createRequire(import.meta.url).resolve('vnu-jar/build/dist/vnu.jar')
}

/**
 * Runs `java -jar vnu.jar --errors-only --format json` on the files (CSS messages filtered, see below).
 * @param root absolute folder the files are in
 * @param files HTML files relative to root
 * @returns the errors (also fatal ones and the checker's own I/O errors), file relative to root
 * @throws Error when Java does not start or prints no JSON
 */
export async function checkHtml(root: string, files: readonly string[]): Promise<HtmlError[]> {
  const args = [
    '-jar',
    vnuJarPath(),
    '--errors-only',
    '--filterpattern',
    CSS_FILTER_PATTERN,
    '--format',
    'json',
    ...files,
  ]
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.env.JAVA ?? 'java', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    let text = ''
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()))
    child.once('error', reject)
    child.once('close', () => resolve(text))
  })
  const start = output.indexOf('{"')
  if (start < 0) throw new Error(`vnu printed no JSON: ${output.slice(0, 500)}`)
  const { messages } = JSON.parse(output.slice(start)) as { messages: VnuMessage[] }
  return errorsOf(messages, (message) => (message.url ? fileOf(root, message.url) : '(checker)'))
}

/** The checker names files by `file:` URL: back to a path relative to root. */
function fileOf(root: string, url: string): string {
  try {
    return path
      .relative(root, decodeURIComponent(new URL(url).pathname))
      .split(path.sep)
      .join('/')
  } catch {
    return url
  }
}

/** A file's path relative to root with `/` separators, the form `fileOf` gives. */
function relativeFile(root: string, file: string): string {
  return path.relative(root, path.resolve(root, file)).split(path.sep).join('/')
}

/**
 * The JVM's flags for the service. Left to itself the JVM takes a quarter of the machine's
 * memory as its heap ceiling, and the service held 600 MB resident after checking the
 * seed's pages. 192 MB of heap checks a 1.3 MB page; at 128 MB the checker's language
 * detector ran out of memory loading its profiles and every later check answered an
 * internal error. The serial collector suits a 2-core machine and one request at a time.
 * On running out of memory the JVM exits, so the gate restarts it instead of asking a
 * broken service.
 */
const SERVICE_JVM_FLAGS = ['-Xmx192m', '-XX:+UseSerialGC', '-XX:+ExitOnOutOfMemoryError']

/** The largest page the service takes (its default is 2 MB; the one-shot checker has no limit). */
const SERVICE_MAX_FILE_BYTES = 16 * 1024 * 1024

/**
 * How many messages the service reports on one page before it stops with "Too many
 * messages." (`nu.validator.messages.limit`, default 1,000). The service counts warnings
 * and info too, even when asked for errors only (`level=error`), unlike the one-shot
 * checker's `--errors-only`: the case study list of the seed plus 1,000 case studies
 * reached the default with no error in it, and the gate failed on it.
 */
const SERVICE_MESSAGE_LIMIT = 1_000_000

/** A page the service must answer without an error before it counts as started (it also warms it up). */
const PROBE_PAGE =
  '<!DOCTYPE html><html lang="en"><head><title>Ready</title></head>' +
  '<body><p>The checker is ready to check the pages of a build.</p></body></html>'

/** How many pages are sent to the service at a time (the machine has 2 cores). */
const CONCURRENT_PAGES = 2

/** The Nu HTML checker's HTTP service, started by `startHtmlChecker`. */
export type HtmlChecker = {
  /** The port it listens on, at 127.0.0.1 only. */
  readonly port: number
  /** The Java process's id (the guard's, where `setpriv` is missing: child-lifetime.ts). */
  readonly pid: number
  /** False once the Java process has exited (stopped, killed or crashed). */
  readonly running: boolean
  /**
   * Checks HTML files with the service: `checkHtml`'s contract and messages.
   * @param root absolute folder the files are in
   * @param files HTML files relative to root
   * @returns the errors (also fatal ones and the checker's own), file relative to root; a file
   *   that cannot be read is one error naming it
   * @throws Error when the service does not answer, answers other than 200, or not with JSON
   */
  check(root: string, files: readonly string[]): Promise<HtmlError[]>
  /**
   * Stops the Java process (SIGTERM, SIGKILL after 5 s) and waits for it to exit.
   * @returns when it has exited; at once when it had already
   */
  stop(): Promise<void>
}

/** A free TCP port on 127.0.0.1, from the system. */
async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}

class ServiceChecker implements HtmlChecker {
  readonly port: number
  readonly #child: ChildProcess
  readonly #group: boolean
  readonly #exited: Promise<void>
  #running = true
  /** The last lines the service printed, for an error message. */
  output = ''

  /** @param group the child leads a process group (the guard and the JVM): a hard stop kills the group */
  constructor(child: ChildProcess, port: number, group: boolean) {
    this.#child = child
    this.#group = group
    this.port = port
    const keep = (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-4000))
    child.stdout?.on('data', keep)
    child.stderr?.on('data', keep)
    this.#exited = new Promise((resolve) =>
      child.once('exit', () => {
        this.#running = false
        process.off('exit', this.#kill)
        resolve()
      }),
    )
    // A JVM outlives the node process that started it unless it is killed: kill it on exit
    // (and on any other end of the publisher: the parent-death signal or the guard).
    process.on('exit', this.#kill)
  }

  get pid(): number {
    return this.#child.pid ?? -1
  }

  get running(): boolean {
    return this.#running
  }

  #kill = () => {
    if (!this.#group || !this.#child.pid) return void this.#child.kill('SIGKILL')
    try {
      process.kill(-this.#child.pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }

  /** Posts one document; the service's messages. */
  async post(html: Buffer | string): Promise<VnuMessage[]> {
    const response = await fetch(`http://127.0.0.1:${this.port}/?out=json&level=error`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
      body: typeof html === 'string' ? html : new Uint8Array(html),
      signal: AbortSignal.timeout(120_000),
    })
    const text = await response.text()
    if (!response.ok) throw new Error(`the HTML checker answered ${response.status}: ${text.slice(0, 300)}`)
    try {
      return (JSON.parse(text) as { messages: VnuMessage[] }).messages
    } catch {
      throw new Error(`the HTML checker answered no JSON: ${text.slice(0, 300)}`)
    }
  }

  async check(root: string, files: readonly string[]): Promise<HtmlError[]> {
    const results: HtmlError[][] = []
    let next = 0
    const worker = async () => {
      while (next < files.length) {
        const index = next++
        const file = relativeFile(root, files[index]!)
        const read = await readFile(path.resolve(root, file)).then(
          (html) => ({ html }),
          (error: Error) => ({ error }),
        )
        results[index] =
          'error' in read
            ? [{ file, message: `the file could not be read: ${read.error.message}` }]
            : errorsOf(await this.post(read.html), () => file)
      }
    }
    await Promise.all(Array.from({ length: Math.min(CONCURRENT_PAGES, files.length) }, worker))
    return results.flat()
  }

  async stop(): Promise<void> {
    if (!this.#running) return
    this.#child.kill('SIGTERM')
    const timer = setTimeout(this.#kill, 5_000)
    await this.#exited
    clearTimeout(timer)
  }
}

/**
 * Starts the Nu HTML checker as an HTTP service (`nu.validator.servlet.Main`) on a free
 * port, bound to 127.0.0.1 only (`-Dnu.validator.servlet.bind-address`; its default is
 * every interface), and waits until it checks a page. The JVM's heap is capped
 * (`SERVICE_JVM_FLAGS`). The process ends when this node process ends, however it ends
 * (child-lifetime.ts: the parent-death signal, or the guard where `setpriv` is missing);
 * call `stop()` before, for a graceful stop.
 * @param options.timeoutMs how long to wait for it to answer, in ms (default 180,000: it
 *   took 15 to 25 s on a busy 2-core machine)
 * @param options.signal aborting it while the service starts stops the process
 * @returns the running checker
 * @throws Error when Java does not start, the service exits or does not answer in time, or
 *   it reports an error on a valid page, or `signal` aborts (the process is stopped then)
 */
export async function startHtmlChecker(
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<HtmlChecker> {
  const timeoutMs = options.timeoutMs ?? 180_000
  const port = await freeLoopbackPort()
  // Ends with this process however it ends, SIGKILL included (child-lifetime.ts).
  const tied = tiedToThisProcess(
    [
      process.env.JAVA ?? 'java',
      ...SERVICE_JVM_FLAGS,
      '-Dnu.validator.servlet.bind-address=127.0.0.1',
      `-Dnu.validator.servlet.max-file-size=${SERVICE_MAX_FILE_BYTES}`,
      `-Dnu.validator.messages.limit=${SERVICE_MESSAGE_LIMIT}`,
      '-cp',
      vnuJarPath(),
      'nu.validator.servlet.Main',
      String(port),
    ],
    { tree: false },
  )
  const child = spawn(tied.argv[0]!, tied.argv.slice(1), {
    stdio: [tied.stdin, 'pipe', 'pipe'],
    detached: tied.detached,
  })
  const spawned = new Promise<Error | null>((resolve) => {
    child.once('spawn', () => resolve(null))
    child.once('error', resolve)
  })
  const failed = await spawned
  if (failed) throw new Error(`the HTML checker did not start: ${failed.message}`)
  const checker = new ServiceChecker(child, port, tied.detached)
  const deadline = performance.now() + timeoutMs
  while (checker.running) {
    if (options.signal?.aborted) {
      await checker.stop()
      throw new Error('the HTML checker was stopped while it started')
    }
    let messages: VnuMessage[] | null = null
    try {
      messages = await checker.post(PROBE_PAGE)
    } catch {
      // Not listening yet.
    }
    if (messages) {
      const errors = errorsOf(messages, () => '(probe)')
      if (!errors.length) return checker
      await checker.stop()
      throw new Error(`the HTML checker reports errors on a valid page: ${errors[0]!.message}`)
    }
    if (performance.now() > deadline) {
      await checker.stop()
      throw new Error(`the HTML checker did not answer within ${timeoutMs} ms: ${checker.output.slice(-500)}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`the HTML checker exited while starting: ${checker.output.slice(-500)}`)
}
