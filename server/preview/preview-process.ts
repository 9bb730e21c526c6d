/** Runs and restarts the preview process, and proxies sessions' requests to its Unix socket. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createHmac, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { levels, type Level, type Logger } from 'pino'
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

const CHILD = path.join(import.meta.dirname, 'preview-child.ts')

/** The preview process's default heap limit in MB: the seed's pages need about 150. */
export const DEFAULT_PREVIEW_HEAP_MB = 512

/** Nice 19 on top of SCHED_IDLE, or alone where `chrt` is missing (measurements: docs/speed.md). */
const PREVIEW_NICENESS = 19

const idleScheduling = (): string[] =>
  spawnSync('chrt', ['--version'], { stdio: 'ignore' }).status === 0 ? ['chrt', '--idle', '0'] : []

/** All editors and `/healthz` learn of a failure: its error can quote drafts, so it goes to the log only. */
export type PreviewDownReason = 'build-failed' | 'crashed' | 'out-of-memory' | 'runaway' | 'stopped'

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

/** RFC 9110 7.6.1's, with `proxy-*` below, and `Expect` (Node has already answered `100-continue`). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'expect',
])

/** Headers without `HOP_BY_HOP`, any `proxy-*` (RFC 9110 7.6.1's among them), and those the Connection header names. */
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

/** What the app hands preview requests to (tests give a stand-in). */
export type PreviewHandler = {
  handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>
}

/**
 * `studioOrigins` (STUDIO_ORIGINS) may frame preview pages; `env` is the publisher's by default, before
 * its secrets are blanked; `build` (default true) builds a missing or older preview first; `restartDelayMs`
 * (default 1 s) doubles up to 30 s while it keeps failing; `program` is preview-child.ts but in tests.
 */
export type PreviewProcessOptions = {
  root: string
  log: Logger
  studioOrigins: readonly string[]
  heapMb?: number
  limits?: Partial<RenderLimits>
  env?: NodeJS.ProcessEnv
  build?: boolean
  restartDelayMs?: number
  program?: string
}

type State =
  | { kind: 'starting' }
  | { kind: 'ready'; since: number }
  | { kind: 'down'; reason: PreviewDownReason }
  | { kind: 'stopped' }

export class PreviewProcess implements PreviewHandler {
  /** The socket as reply-from's `unix+http://<escaped path>/`. */
  readonly upstream: string
  readonly socket: string
  #options: PreviewProcessOptions
  #dir: string
  #state: State = { kind: 'starting' }
  #child: ChildProcess | null = null
  #restarts = 0
  #restartTimer: NodeJS.Timeout | null = null
  #stopping = new AbortController()
  #tagKey = randomBytes(32)

  /** Makes the socket's folder (mode 0700); nothing runs until `start`. */
  constructor(options: PreviewProcessOptions) {
    this.#options = options
    // A Unix socket's path is limited to about 100 bytes.
    this.#dir = mkdtempSync(path.join(os.tmpdir(), 'site-preview-'))
    if ((statSync(this.#dir).mode & 0o077) !== 0)
      throw new Error(`preview: the socket folder ${this.#dir} can be opened by other users`)
    this.socket = path.join(this.#dir, 'render.sock')
    this.upstream = `unix+http://${encodeURIComponent(this.socket)}/`
  }

  /** ms an editor waits for a page before the publisher gives up on the process. */
  get answerTimeoutMs(): number {
    return (this.#options.limits?.timeLimitMs ?? DEFAULT_RENDER_LIMITS.timeLimitMs) + 10_000
  }

  /** Builds the preview when needed and starts the process; resolves once it is ready or has failed. */
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

  /** This process when ready, null while it starts, or why it is down. */
  current(): PreviewHandler | PreviewDown | null {
    const state = this.#state
    if (state.kind === 'ready') return this
    if (state.kind === 'starting') return null
    return new PreviewDown(state.kind === 'down' ? state.reason : 'stopped')
  }

  /** For benchmarks, which read its memory apart from the publisher's. */
  get pid(): number | undefined {
    return this.#child?.pid
  }

  /** Streams a request to the process, session cookie out and session tag in; else answers itself. */
  async handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    // Not the live build's headers for this path.
    for (const name of Object.keys(reply.getHeaders())) reply.removeHeader(name)
    const refuse = (status: number, text: string) =>
      reply
        .code(status)
        .headers(noticeHeaders(this.#options.studioOrigins))
        .type('text/plain; charset=utf-8')
        .send(text)
    if (!request.url.startsWith('/'))
      return refuse(400, 'The preview answers requests for a path of this site, not for a whole URL.')
    if (request.headers.upgrade !== undefined)
      return refuse(501, 'The preview does not take WebSocket or other protocol upgrades.')
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
    // An editor who left mid-answer: no later handler (the live site's files) may answer again.
    if (!reply.sent) reply.hijack()
    return reply
  }

  /** An HMAC of the session under this publisher's key: stable per session, revealing nothing of it. */
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
      // The IPC channel carries "ready", and its closing ends the child with the publisher.
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
        const { level, msg, ...fields } = entry
        for (const name of ['time', 'pid', 'hostname']) delete fields[name]
        const method = (levels.labels[level as number] ?? 'info') as Level
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

  /** `reason` is what editors are told, `why` goes to the log only. */
  #restartLater(reason: PreviewDownReason, why: string) {
    const { log } = this.#options
    const wasReady = this.#state.kind === 'ready' ? this.#state.since : 0
    // A process that served for a minute before it ended gets the shortest wait again.
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

/** A JSON object line (a `{` line parses to an object or fails), else null. */
function parseLine(line: string): Record<string, unknown> | null {
  try {
    return line.startsWith('{') ? (JSON.parse(line) as Record<string, unknown>) : null
  } catch {
    return null
  }
}
