/**
 * The publisher's side of editors' preview: it builds the preview when the code changed
 * (server/preview-build.ts), starts the preview process (server/preview-child.ts) and keeps
 * it running, and hands it each request of an open preview session (server/app.ts checks
 * the session first) over a Unix domain socket, streaming both ways through
 * `@fastify/reply-from` (undici), no body buffered, with a tag of the session (the
 * process's fair share per editor) and no hop-by-hop header either way. What it cannot
 * hand over it answers itself, with the preview's headers.
 * - The socket lives in a folder made for this publisher, mode 0700: only the publisher's
 *   user can connect, and nothing listens on a TCP port.
 * - The process runs with a heap limit (`heapMb`, Node's --max-old-space-size) and the
 *   lowest CPU priority (SCHED_IDLE and nice 19), with no publish or preview secret in its
 *   environment, nor from Next's `.env*` files (server/preview-env.ts). When it ends for any
 *   reason (its heap limit, a render that would not end, a crash) it is started again,
 *   after 1 s, then up to 30 s between tries while it keeps failing.
 * - While it is starting, down or restarting, an editor gets 503 with the reason's class
 *   (`PreviewDown`), never an error's text (which can hold drafts); the detail goes to the
 *   log. Visitors are served by the publisher alone and never notice.
 * - Everything it writes reaches the publisher's log as JSON lines, through the log's
 *   secret scrubbing; a line that is not JSON (a crash of Node itself) is logged as text.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createHmac, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Logger } from 'pino'
import { PREVIEW_COOKIE } from './preview.ts'
import { ensurePreviewBuild } from './preview-build.ts'
import { previewEnv } from './preview-env.ts'
import {
  DEFAULT_RENDER_LIMITS,
  noticeHeaders,
  noticePage,
  RUNAWAY_EXIT_CODE,
  SESSION_HEADER,
  withoutCookie,
  type RenderLimits,
} from './preview-renderer.ts'

/** The preview process's program. */
const CHILD = path.join(import.meta.dirname, 'preview-child.ts')

/** Its heap limit in MB by default: the seed's pages need about 150. */
export const DEFAULT_PREVIEW_HEAP_MB = 512

/**
 * The preview process's CPU priority, the lowest Linux has: Linux's SCHED_IDLE policy
 * (util-linux's `chrt --idle 0`), under which any other process that wakes up takes the
 * CPU from it at once, and nice 19 besides (where `chrt` is missing, nice 19 alone: the
 * publisher then gets about 98% of the time the two of them want, weights 1024 and 15).
 * Measured with `npm run bench -- isolation` (2 cores, 400 visitors'
 * requests/s): visitors' p99 with an editor's preview loop running was 1.6 times their
 * p99 alone at nice 10, 1.4 times at nice 19, and no more than alone under SCHED_IDLE.
 */
const PREVIEW_NICENESS = 19

/** The command that starts a program under SCHED_IDLE, or none where `chrt` is missing. */
const idleScheduling = (): string[] =>
  spawnSync('chrt', ['--version'], { stdio: 'ignore' }).status === 0 ? ['chrt', '--idle', '0'] : []

/**
 * Why the preview does not answer, as a class: what editors and `/healthz` are told. The
 * process's own error (its message can name drafts and hold their content) goes to the
 * publisher's log only.
 */
export type PreviewDownReason = 'build-failed' | 'crashed' | 'out-of-memory' | 'runaway' | 'stopped'

/** Each class's sentence, the whole of what an editor reads. */
const DOWN_MESSAGES: Record<PreviewDownReason, string> = {
  'build-failed': 'the preview could not be built',
  crashed: 'the preview is restarting after its process ended',
  'out-of-memory': 'the preview is restarting after a page needed more memory than it may use',
  runaway: 'the preview is restarting after a render that would not end',
  stopped: 'the preview is stopped',
}

/** The preview is down: `reason` is its class, and its message that class's fixed sentence. */
export class PreviewDown extends Error {
  readonly reason: PreviewDownReason
  constructor(reason: PreviewDownReason) {
    super(DOWN_MESSAGES[reason])
    this.name = 'PreviewDown'
    this.reason = reason
  }
}

/**
 * Headers that belong to one connection (RFC 9110 7.6.1), never passed on either way: the
 * publisher speaks for itself to the editor and to the preview process. `Expect` too: the
 * publisher has already answered an editor's `100-continue` (Node does it before the
 * request is handed over), and the body follows as any other.
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'expect',
])

/**
 * Headers without the hop-by-hop ones (`HOP_BY_HOP`, any `proxy-*`, and those the
 * Connection header names).
 */
function withoutHopByHop<T>(headers: Record<string, T>): Record<string, T> {
  const named = String(headers.connection ?? '')
    .toLowerCase()
    .split(',')
    .map((name) => name.trim())
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => {
      const lower = name.toLowerCase()
      return !HOP_BY_HOP.has(lower) && !lower.startsWith('proxy-') && !named.includes(lower)
    }),
  )
}

/**
 * Why the publisher answers a session's request itself rather than hand it over, or null
 * to hand it over: a whole URL as the request target (`GET http://host/ HTTP/1.1`, a
 * proxy's form, not this site's), or a protocol upgrade (WebSocket), which the preview
 * does not speak.
 */
function unproxiable(request: FastifyRequest): { status: number; text: string } | null {
  if (!request.url.startsWith('/'))
    return { status: 400, text: 'The preview answers requests for a path of this site, not for a whole URL.' }
  if (request.headers.upgrade !== undefined)
    return { status: 501, text: 'The preview does not take WebSocket or other protocol upgrades.' }
  return null
}

/** What the app hands preview requests to (tests give a stand-in). */
export type PreviewHandler = {
  handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>
}

export type PreviewProcessOptions = {
  /** The repository: the app's code, public/ and the preview build. */
  root: string
  log: Logger
  /** STUDIO_ORIGINS: they may frame preview pages (Presentation). */
  studioOrigins: readonly string[]
  /** The process's heap limit in MB (PREVIEW_HEAP_MB). */
  heapMb?: number
  limits?: Partial<RenderLimits>
  /** The process's environment before the secrets are blanked (default: the publisher's). */
  env?: NodeJS.ProcessEnv
  /** Build the preview first when it is missing or older than the code (default true). */
  build?: boolean
  /** The first wait before a restart, in ms (default 1 s; doubles to 30 s while it keeps failing). */
  restartDelayMs?: number
  /** The process's program (default server/preview-child.ts; tests give a stand-in). */
  program?: string
}

type State =
  | { kind: 'starting' }
  | { kind: 'ready'; since: number }
  | { kind: 'down'; reason: PreviewDownReason }
  | { kind: 'stopped' }

/** See the module comment. */
export class PreviewProcess implements PreviewHandler {
  /** Where reply-from connects: the socket, as `unix+http://<escaped path>/`. */
  readonly upstream: string
  readonly socket: string
  #options: PreviewProcessOptions
  #dir: string
  #state: State = { kind: 'starting' }
  #child: ChildProcess | null = null
  #restarts = 0
  #restartTimer: NodeJS.Timeout | null = null
  #stopping = new AbortController()
  /** Keys the session tags the process counts by (`SESSION_HEADER`): they name no session outside it. */
  #tagKey = randomBytes(32)

  /** Makes the socket's folder (mode 0700); nothing runs until `start`. */
  constructor(options: PreviewProcessOptions) {
    this.#options = options
    // A short path: a Unix socket's path is limited to about 100 bytes.
    this.#dir = mkdtempSync(path.join(os.tmpdir(), 'site-preview-'))
    if ((statSync(this.#dir).mode & 0o077) !== 0)
      throw new Error(`preview: the socket folder ${this.#dir} can be opened by other users`)
    this.socket = path.join(this.#dir, 'render.sock')
    this.upstream = `unix+http://${encodeURIComponent(this.socket)}/`
  }

  /** The longest an editor waits for a page before the publisher gives up on the process. */
  get answerTimeoutMs(): number {
    return (this.#options.limits?.timeLimitMs ?? DEFAULT_RENDER_LIMITS.timeLimitMs) + 10_000
  }

  /**
   * Builds the preview when needed, then starts the process.
   * @returns when the process is first ready, or has failed (the reason is its state)
   */
  async start(): Promise<{ buildMs: number; readyMs: number }> {
    const started = performance.now()
    let buildMs = 0
    try {
      if (this.#options.build !== false)
        buildMs = await ensurePreviewBuild(this.#options.root, this.#options.log, this.#stopping.signal)
    } catch (error) {
      this.#state = { kind: 'down', reason: 'build-failed' }
      throw error
    }
    await this.#spawn()
    return { buildMs, readyMs: Math.round(performance.now() - started) }
  }

  /**
   * What the app asks of the preview now: this process when it is ready, null while it
   * starts, or the reason's class while it is down (restarting or not).
   */
  current(): PreviewHandler | PreviewDown | null {
    const state = this.#state
    if (state.kind === 'ready') return this
    if (state.kind === 'starting') return null
    return new PreviewDown(state.kind === 'down' ? state.reason : 'stopped')
  }

  /** The process's id and its heap limit (benchmarks read its memory apart from the publisher's). */
  get pid(): number | undefined {
    return this.#child?.pid
  }

  /**
   * Hands a request to the process: the publisher's session cookie stays here, the
   * process is told which session asks (a tag of it, `SESSION_HEADER`, for its fair
   * share), the request and the answer stream through without their hop-by-hop headers.
   * A request it cannot hand over, or that the process does not answer, gets the
   * publisher's own answer saying so, with the preview's headers (`noticeHeaders`).
   */
  async handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    // The answer's headers are the preview process's alone (not the live build's for this path).
    for (const name of Object.keys(reply.getHeaders())) reply.removeHeader(name)
    const refuse = (status: number, text: string) =>
      reply
        .code(status)
        .headers(noticeHeaders(this.#options.studioOrigins))
        .type('text/plain; charset=utf-8')
        .send(text)
    const refusal = unproxiable(request)
    if (refusal) return refuse(refusal.status, refusal.text)
    // A body (a server action's) streams to the process as it arrives, never parsed or held here.
    if (request.method !== 'GET' && request.method !== 'HEAD')
      (request as { body?: unknown }).body = request.raw
    const path = request.url.split('?')[0] ?? '/'
    const session = this.#sessionTag(request)
    const closed = new Promise((resolve) => reply.raw.once('close', resolve))
    try {
      // The path alone: reply-from adds the query as it came, undecoded.
      reply.from(path, {
        rewriteRequestHeaders: (original, headers) => {
          const rest: Record<string, string | string[] | undefined> = {
            ...withoutHopByHop(headers),
            host: original.headers.host ?? 'localhost',
            [SESSION_HEADER]: session,
          }
          delete rest.cookie
          const cookie = withoutCookie(original.headers.cookie, PREVIEW_COOKIE)
          return cookie ? { ...rest, cookie } : rest
        },
        rewriteHeaders: (headers) => withoutHopByHop(headers),
        onError: (failed, { error }) => {
          this.#options.log.warn(
            { event: 'preview.unanswered', path, error: error.message },
            'preview: the preview process did not answer',
          )
          failed
            .code(503)
            .headers({ ...noticeHeaders(this.#options.studioOrigins), 'Retry-After': '5' })
            .type('text/html; charset=utf-8')
            .send(
              noticePage(
                'The preview did not answer',
                'The preview process did not answer this request: it may be restarting. Try again in a few seconds.',
              ),
            )
        },
      })
    } catch (error) {
      // reply-from refuses a path that climbs out with dot segments, or cannot be decoded.
      return refuse(400, `The preview cannot take this address: ${(error as Error).message}.`)
    }
    await closed
    // An editor who left mid-answer closed the response before it ended. The request is over
    // all the same: hijacked, so that no later handler (the live site's files) answers it
    // again into the closed response.
    if (!reply.sent) reply.hijack()
    return reply
  }

  /**
   * The tag of a request's session for the preview process: an HMAC of the session, under a
   * key of this publisher's, so the same session always has the same tag, and the tag
   * tells nothing of the session (or its cookie) to anyone who sees it.
   */
  #sessionTag(request: FastifyRequest): string {
    const signed = request.cookies?.[PREVIEW_COOKIE]
    const session = (signed && request.unsignCookie(signed).value) || ''
    return createHmac('sha256', this.#tagKey).update(session).digest('base64url').slice(0, 22)
  }

  /** Stops the process (SIGTERM, then SIGKILL after 5 s) and removes the socket's folder. */
  async close(): Promise<void> {
    this.#stopping.abort()
    this.#state = { kind: 'stopped' }
    if (this.#restartTimer) clearTimeout(this.#restartTimer)
    const child = this.#child
    if (child && child.exitCode === null && child.signalCode === null) {
      const ended = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      const kill = setTimeout(() => child.kill('SIGKILL'), 5000)
      await ended
      clearTimeout(kill)
    }
    rmSync(this.#dir, { recursive: true, force: true })
  }

  /** Starts the process; resolves when it is ready or has ended. */
  #spawn(): Promise<void> {
    const { root, log, studioOrigins, limits, heapMb = DEFAULT_PREVIEW_HEAP_MB } = this.#options
    const env = previewEnv(this.#options.env ?? process.env)
    // Log lines, not a terminal's colours (FORCE_COLOR would win over NO_COLOR, and Node warns).
    delete env.FORCE_COLOR
    this.#state = { kind: 'starting' }
    const [wrapper, ...wrapperArgs] = [
      ...idleScheduling(),
      process.execPath,
      `--max-old-space-size=${heapMb}`,
      this.#options.program ?? CHILD,
    ]
    const child = spawn(wrapper!, wrapperArgs, {
      cwd: root,
      env: {
        ...env,
        PREVIEW_SOCKET: this.socket,
        PREVIEW_STUDIO_ORIGINS: JSON.stringify(studioOrigins),
        PREVIEW_LIMITS: JSON.stringify(limits ?? {}),
        NEXT_TELEMETRY_DISABLED: '1',
        NO_COLOR: '1',
      },
      // Node's IPC channel (fd 3): the ready message, and the end of the publisher seen.
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    })
    this.#child = child
    try {
      if (child.pid) os.setPriority(child.pid, PREVIEW_NICENESS)
    } catch (error) {
      log.warn(
        { event: 'preview.priority', error: (error as Error).message },
        'preview: could not lower its priority',
      )
    }
    let lastError = ''
    let outOfMemory = false
    const take = (stream: NodeJS.ReadableStream, name: 'stdout' | 'stderr') =>
      createInterface({ input: stream }).on('line', (line) => {
        const entry = parseLine(line)
        if (/heap out of memory|Reached heap limit/.test(line)) outOfMemory = true
        if (!entry) {
          if (line.trim()) log.warn({ event: 'preview.output', stream: name, line }, line)
          return
        }
        // Its own time, pid and host give way to the publisher's logger's.
        const { level, msg, ...fields } = entry
        for (const name of ['time', 'pid', 'hostname']) delete fields[name]
        const method = LEVELS[level as number] ?? 'info'
        if (method === 'error' || method === 'fatal') lastError = String(fields.error ?? msg ?? '')
        log[method](fields, String(msg ?? ''))
      })
    take(child.stdout!, 'stdout')
    take(child.stderr!, 'stderr')
    return new Promise((resolve) => {
      child.on('message', (message: { type?: string; loadMs?: number }) => {
        if (message?.type !== 'ready') return
        this.#state = { kind: 'ready', since: Date.now() }
        log.info({ event: 'preview.ready', pid: child.pid, loadMs: message.loadMs }, 'preview: ready')
        resolve()
      })
      child.on('exit', (code, signal) => {
        this.#child = null
        resolve()
        if (this.#state.kind === 'stopped') return
        const ended = signal ? `killed by ${signal}` : `exit code ${code}`
        const [reason, why]: [PreviewDownReason, string] = outOfMemory
          ? ['out-of-memory', `it ran out of memory (its heap limit is ${heapMb} MB)`]
          : code === RUNAWAY_EXIT_CODE
            ? ['runaway', `a render would not end (${lastError})`]
            : ['crashed', `it ended (${ended})${lastError ? `: ${lastError}` : ''}`]
        this.#restartLater(reason, why)
      })
    })
  }

  /**
   * Starts the process again after a wait that grows while it keeps failing.
   * @param reason the class editors are told; @param why the detail, for the log only
   */
  #restartLater(reason: PreviewDownReason, why: string) {
    const { log } = this.#options
    const wasReady = this.#state.kind === 'ready' ? this.#state.since : 0
    // A process that served for a minute before it ended starts again at once.
    if (wasReady && Date.now() - wasReady > 60_000) this.#restarts = 0
    const delay = Math.min((this.#options.restartDelayMs ?? 1000) * 2 ** this.#restarts, 30_000)
    this.#restarts += 1
    this.#state = { kind: 'down', reason }
    log.error(
      { event: 'preview.down', class: reason, reason: why, restartInMs: delay },
      `preview: the preview is restarting: ${why}`,
    )
    this.#restartTimer = setTimeout(() => {
      this.#restartTimer = null
      if (this.#state.kind !== 'stopped') void this.#spawn()
    }, delay)
  }
}

/** pino's numeric levels, as the logger's methods. */
const LEVELS: Record<number, 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal'> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
}

/** A JSON log line of the preview process, or null for any other line. */
function parseLine(line: string): Record<string, unknown> | null {
  if (!line.startsWith('{')) return null
  try {
    const value: unknown = JSON.parse(line)
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}
