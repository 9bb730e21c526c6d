/** The W3C Nu HTML checker's errors: one-shot `checkHtml` (audits) or the warm service (the gate). */
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import pMap from 'p-map'
import { tiedToThisProcess } from '../child-lifetime.ts'

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
 * Its CSS validator predates @property, @layer and nesting: its messages on the inline Tailwind stylesheet
 * are false. `CSS_FILTER` matches as `--filterpattern` does (Java `matches()`), for the service.
 */
const CSS_FILTER_PATTERN = 'CSS: .*'
const CSS_FILTER = new RegExp(`^(?:${CSS_FILTER_PATTERN})$`)

/** Errors (fatal and the checker's own too), never warnings or CSS messages. */
function errorsOf(messages: readonly VnuMessage[], fileOf: (message: VnuMessage) => string): HtmlError[] {
  return messages
    .filter(
      ({ type, subType, message }) =>
        (type === 'error' || subType === 'fatal' || type === 'non-document-error') &&
        !CSS_FILTER.test(message),
    )
    .map((message) => ({
      file: fileOf(message),
      line: message.lastLine,
      column: message.firstColumn,
      message: message.message,
      extract: message.extract,
    }))
}

/** Whether Java runs here (the checker needs it). */
export function javaAvailable(): boolean {
  return spawnSync(java(), ['-version'], { stdio: 'ignore' }).status === 0
}

const vnuJarPath = () => createRequire(import.meta.url).resolve('vnu-jar/build/dist/vnu.jar')
const java = () => process.env.JAVA ?? 'java'

/**
 * One `java -jar vnu.jar` over `files` (relative to the absolute `root`).
 * @returns the errors, `file` relative to root
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
  ]
  const child = spawn(java(), [...args, ...files], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk))
  await once(child, 'close')
  const start = output.indexOf('{"')
  if (start < 0) throw new Error(`vnu printed no JSON: ${output.slice(0, 500)}`)
  const { messages } = JSON.parse(output.slice(start)) as { messages: VnuMessage[] }
  return errorsOf(messages, ({ url }) => {
    try {
      return url ? posix(path.relative(root, fileURLToPath(url))) : '(checker)'
    } catch {
      return url!
    }
  })
}

const posix = (file: string) => file.split(path.sep).join('/')

/** Heap: docs/publishing.md. Out of memory, the JVM exits: the gate restarts it, not asking a broken one. */
const SERVICE_JVM_FLAGS = ['-Xmx192m', '-XX:+UseSerialGC', '-XX:+ExitOnOutOfMemoryError']

/** The service's default is 2 MB; the one-shot checker has no limit. */
const SERVICE_MAX_FILE_BYTES = 16 * 1024 * 1024

/** Warnings count even at `level=error`: a list of 1,000 case studies reached the default 1,000. */
const SERVICE_MESSAGE_LIMIT = 1_000_000

/** The service counts as started once it finds no error here (this also warms it up). */
const PROBE_PAGE =
  '<!DOCTYPE html><html lang="en"><head><title>Ready</title></head>' +
  '<body><p>The checker is ready to check the pages of a build.</p></body></html>'

const CONCURRENT_PAGES = 2

export type HtmlChecker = {
  readonly port: number
  /** The guard's where `setpriv` is missing (child-lifetime.ts). */
  readonly pid: number
  readonly running: boolean
  /** `checkHtml`'s contract (an unreadable file is one error); throws when the service answers wrong or not. */
  check(root: string, files: readonly string[]): Promise<HtmlError[]>
  /** SIGTERM, SIGKILL after 5 s; resolves once it has exited. */
  stop(): Promise<void>
}

/** A TCP port of 127.0.0.1 nobody listens on right now (the OS picks it). */
export async function freeLoopbackPort(): Promise<number> {
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

/**
 * Starts the checker's HTTP service on a free 127.0.0.1 port and waits until it checks a page; it ends
 * with this process however that ends (child-lifetime.ts).
 * @param options.timeoutMs default 180,000 (it took 15 to 25 s on a busy 2-core machine)
 * @param options.signal aborting it while the service starts stops the process
 * @throws Error when Java does not start, the service exits or does not answer in time, or
 *   it reports an error on a valid page, or `signal` aborts (the process is stopped then)
 */
export async function startHtmlChecker(
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<HtmlChecker> {
  const timeoutMs = options.timeoutMs ?? 180_000
  const port = await freeLoopbackPort()
  const tied = tiedToThisProcess(
    [
      java(),
      ...SERVICE_JVM_FLAGS,
      // Its default is every interface.
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
  await once(child, 'spawn').catch((error: Error) => {
    throw new Error(`the HTML checker did not start: ${error.message}`)
  })
  let output = ''
  for (const stream of [child.stdout!, child.stderr!])
    stream.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)))
  // A detached child leads a process group (the guard and the JVM): a hard stop kills the group.
  const kill = () => {
    try {
      if (tied.detached) process.kill(-child.pid!, 'SIGKILL')
      else child.kill('SIGKILL')
    } catch {}
  }
  // A JVM outlives the node process that started it (other ends: child-lifetime.ts).
  process.on('exit', kill)
  let running = true
  const exited = new Promise((resolve) => child.once('exit', resolve)).then(() => {
    running = false
    process.off('exit', kill)
  })

  const post = async (html: Buffer | string): Promise<VnuMessage[]> => {
    const response = await fetch(`http://127.0.0.1:${port}/?out=json&level=error`, {
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

  const checker: HtmlChecker = {
    port,
    pid: child.pid!,
    get running() {
      return running
    },
    async check(root, files) {
      const results = await pMap(
        files,
        async (name) => {
          const file = posix(path.relative(root, path.resolve(root, name)))
          const html = await readFile(path.resolve(root, file)).catch((error: Error) => error)
          return Buffer.isBuffer(html)
            ? errorsOf(await post(html), () => file)
            : [{ file, message: `the file could not be read: ${html.message}` }]
        },
        { concurrency: CONCURRENT_PAGES },
      )
      return results.flat()
    },
    async stop() {
      if (!running) return
      child.kill('SIGTERM')
      const timer = setTimeout(kill, 5_000)
      await exited
      clearTimeout(timer)
    },
  }

  const deadline = performance.now() + timeoutMs
  const fail = async (message: string) => {
    await checker.stop()
    return new Error(message)
  }
  while (running) {
    if (options.signal?.aborted) throw await fail('the HTML checker was stopped while it started')
    const messages = await post(PROBE_PAGE).catch(() => null) // null: not listening yet
    if (messages) {
      const errors = errorsOf(messages, () => '(probe)')
      if (!errors.length) return checker
      throw await fail(`the HTML checker reports errors on a valid page: ${errors[0]!.message}`)
    }
    if (performance.now() > deadline)
      throw await fail(`the HTML checker did not answer within ${timeoutMs} ms: ${output.slice(-500)}`)
    await sleep(250)
  }
  throw new Error(`the HTML checker exited while starting: ${output.slice(-500)}`)
}
