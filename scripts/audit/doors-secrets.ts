/**
 * The secrets door: the preview process holds none of the publisher's secrets planted in `.env*` files, in its
 * spawn environment, its `process.env` (read through Node's inspector) or the log.
 */
import { randomBytes } from 'node:crypto'
import { cpSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { DoorsContext } from './doors-kit.ts'

/** The settings no render needs, planted in the `.env*` files by file (Next reads all three). */
const PLANTED: Readonly<Record<string, readonly string[]>> = {
  '.env.local': ['SANITY_WEBHOOK_SECRET', 'SANITY_PREVIEW_SECRET'],
  '.env.production': ['SANITY_WEBHOOK_SECRET_PREVIOUS'],
  '.env': ['SANITY_PREVIEW_SECRET_PREVIOUS', 'SANITY_API_WRITE_TOKEN'],
}

/** Every planted variable's name. */
const SECRET_NAMES = Object.values(PLANTED).flat()

/**
 * A folder to run the publisher in, as an operator's checkout with `.env*` files: every entry of `repo` linked in,
 * except `out/` (a copy of `exportDir`) and `public/` (a copy: its publishes rewrite both), `.git` and `.env*` (the
 * planted files instead); `.next/` and `.cache/` are the repository's, so a publish compiles nothing.
 */
export function publisherFolder(repo: string, exportDir: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'audit-publisher-'))
  for (const entry of readdirSync(repo)) {
    if (entry === 'out' || entry === 'public' || entry === '.git' || entry.startsWith('.env')) continue
    symlinkSync(path.join(repo, entry), path.join(dir, entry))
  }
  cpSync(path.join(repo, 'public'), path.join(dir, 'public'), { recursive: true })
  cpSync(exportDir, path.join(dir, 'out'), { recursive: true })
  const planted = new Map<string, string>()
  for (const [file, names] of Object.entries(PLANTED)) {
    const lines = names.map((name) => {
      const value = `planted-${file.slice(1).replace('.', '-')}-${randomBytes(16).toString('hex')}`
      planted.set(name, value)
      return `${name}=${value}`
    })
    writeFileSync(path.join(dir, file), lines.join('\n') + '\n')
  }
  return { dir, exportDir: path.join(dir, 'out'), planted }
}

/**
 * The names of the variables holding a value in a process's `process.env` now (or why they could not be read), asked
 * through Node's inspector: SIGUSR1 opens it on a free port (`--inspect-port=0`), its address comes out in the
 * publisher's log, and it is closed again afterwards.
 */
async function liveEnvNames(pid: number, output: () => string): Promise<string[] | Error> {
  const from = output().length
  process.kill(pid, 'SIGUSR1')
  let address: string | undefined
  for (const until = Date.now() + 10_000; !address && Date.now() < until;) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    const said = output().slice(from)
    address = /Debugger listening on (ws:\/\/[^\s"\\]+)/.exec(said)?.[1]
    const failed = /Starting inspector on [^\s"]+ failed[^"\\]*/.exec(said)?.[0]
    if (failed) return new Error(failed)
  }
  if (!address) return new Error('the preview process printed no inspector address within 10 s')
  const socket = new WebSocket(address)
  const answers = new Map<number, (value: unknown) => void>()
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown }
    if (message.id) answers.get(message.id)?.(message.result)
  })
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve)
    socket.addEventListener('error', () => reject(new Error(`could not connect to ${address}`)))
  })
  let id = 0
  const evaluate = (expression: string) =>
    new Promise<unknown>((resolve) => {
      answers.set(++id, resolve)
      socket.send(
        JSON.stringify({ id, method: 'Runtime.evaluate', params: { expression, returnByValue: true } }),
      )
    })
  const result = (await evaluate(
    'JSON.stringify(Object.keys(process.env).filter((name) => process.env[name]))',
  )) as { result?: { value?: string } }
  // Closed once this connection is gone (close() waits for every connection to end).
  await evaluate("setTimeout(() => process.getBuiltinModule('node:inspector').close(), 200), 0")
  socket.close()
  const names = result.result?.value
  return names ? (JSON.parse(names) as string[]) : new Error('the inspector gave no answer')
}

/** What the preview process holds of the planted secrets (see the module comment). */
export async function secretAttempts(
  context: DoorsContext,
  folder: ReturnType<typeof publisherFolder>,
): Promise<void> {
  const { site, attempt } = context
  const pid = site.previewPid()
  if (!pid) {
    attempt('secrets', 'the preview process, found', true, 'no child of the publisher runs preview-child')
    return
  }
  const environ = readFileSync(`/proc/${pid}/environ`, 'utf8')
    .split('\0')
    .map((entry) => entry.split(/=(.*)/s))
    .filter(([name, value]) => SECRET_NAMES.includes(name!) && value)
    .map(([name]) => name!)
  attempt('secrets', 'its spawn environment (/proc/<pid>/environ)', environ.length > 0, environ.join(', '))
  const live = await liveEnvNames(pid, site.output)
  const held = live instanceof Error ? [] : SECRET_NAMES.filter((name) => live.includes(name))
  attempt(
    'secrets',
    `its process.env now, with ${Object.keys(PLANTED).join(', ')} in its folder`,
    live instanceof Error || held.length > 0,
    live instanceof Error
      ? `could not ask: ${live.message}`
      : held
          .map((name) => `${name} (${Object.keys(PLANTED).find((file) => PLANTED[file]!.includes(name))})`)
          .join(', '),
  )
  const log = site.output()
  const leaked = [...folder.planted].filter(([, value]) => log.includes(value)).map(([name]) => name)
  attempt('secrets', "a planted value in the publisher's log", leaked.length > 0, leaked.join(', '))
  const named = log
    .split('\n')
    .filter((line) => line.includes('"proc":"preview"') && SECRET_NAMES.some((name) => line.includes(name)))
  attempt(
    'secrets',
    'a line of the preview process naming a secret variable it holds',
    named.length > 0,
    named[0]?.slice(0, 200),
  )
}
