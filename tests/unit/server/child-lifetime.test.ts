/**
 * @jest-environment node
 *
 * The publisher's children end with it, however it ends (server/child-lifetime.ts): a
 * publisher of its own (the real Publisher, build command and warm HTML checks) runs a
 * long fake build that starts a process of its own, as `next build` does, and the gate's
 * checker (a stand-in of the JVM, helpers/fake-java); it is killed with SIGKILL, and every
 * process it started, at any depth, must be gone. With `setpriv` and without it (a PATH
 * that holds nothing but Node: the guard then ties the checker too).
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PROCESS_GUARD } from '@/server/child-lifetime'
import { FAKE_BUILD, NODE } from '../helpers/publisherFixture'

const FAKE_JAVA = path.resolve('tests/unit/helpers/fake-java')

/** A process's parent and state from /proc (null when it is gone). */
function stat(pid: number): { ppid: number; state: string } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // After "pid (comm) ": the comm may hold spaces and parentheses.
    const [state, ppid] = text.slice(text.lastIndexOf(')') + 2).split(' ')
    return { ppid: Number(ppid), state: state! }
  } catch {
    return null
  }
}

const commandLine = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')
  } catch {
    return ''
  }
}

/** Every process below `root`, at any depth, with its command line. */
function descendants(root: number): Map<number, string> {
  const children = new Map<number, number[]>()
  for (const name of readdirSync('/proc')) {
    const pid = Number(name)
    const parent = Number.isInteger(pid) ? stat(pid)?.ppid : undefined
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), pid])
  }
  const found = new Map<number, string>()
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      found.set(child, commandLine(child))
      walk(child)
    }
  }
  walk(root)
  return found
}

/** Running: it exists and is not a zombie waiting for whoever adopted it to reap it. */
const running = (pid: number) => {
  const state = stat(pid)?.state
  return state !== undefined && state !== 'Z'
}

const waitFor = async (check: () => boolean, ms = 15_000) => {
  const until = Date.now() + ms
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** The publisher of its own: it builds at once and prints the checker's pid once it started. */
const PUBLISHER = `
  import { BuildStore } from './server/publishing/build-store.ts'
  import { WarmHtmlChecks } from './server/publishing/gate.ts'
  import { publisherLog } from './server/log.ts'
  import { Publisher } from './server/publishing/publisher.ts'
  const dir = process.env.TEST_DIR
  const checks = new WarmHtmlChecks((startMs, pid) => console.log(JSON.stringify({ checker: pid })))
  const publisher = new Publisher({
    store: new BuildStore(dir + '/site'),
    exportDir: dir + '/out',
    command: {
      argv: [${JSON.stringify(NODE)}, ${JSON.stringify(FAKE_BUILD)}],
      cwd: process.cwd(),
      env: { ...process.env, OUT_DIR: dir + '/out', FAKE_BUILD_TREE_MS: '120000' },
    },
    log: publisherLog({ level: 'silent', secrets: [] }),
    gate: { html: true, checkHtml: checks.check, warmUp: checks.warm },
  })
  publisher.request()
  setInterval(() => {}, 1000)
`

let dir: string
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'child-lifetime-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/**
 * Starts the publisher, waits until its build's own process and the checker run, kills the
 * publisher with SIGKILL.
 * @returns the processes it had started, and those still running after the kill
 */
async function killPublisherMidBuild(env: NodeJS.ProcessEnv) {
  const publisher = spawn(NODE, ['--input-type=module', '-e', PUBLISHER], {
    env: { ...env, TEST_DIR: dir, JAVA: FAKE_JAVA },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const checker = await new Promise<number>((resolve, reject) => {
    publisher.stdout.on('data', (chunk) => {
      const match = /"checker":(\d+)/.exec(String(chunk))
      if (match) resolve(Number(match[1]))
    })
    publisher.once('exit', (code) => reject(new Error(`the publisher ended first (${code})`)))
    setTimeout(() => reject(new Error('the checker did not start within 15 s')), 15_000).unref()
  }).catch((error: Error) => {
    publisher.kill('SIGKILL')
    throw error
  })
  let tree = descendants(publisher.pid!)
  // The build's own process (`next build`'s stand-in) starts just after the line that warms the checker.
  await waitFor(() =>
    [...(tree = descendants(publisher.pid!)).values()].some((line) => /setTimeout/.test(line)),
  )
  publisher.kill('SIGKILL')
  const started = [...tree.keys()]
  await waitFor(() => !started.some(running), 5_000).catch(() => undefined)
  return { tree, checker, left: started.filter(running).map((pid) => `${pid} ${tree.get(pid)}`) }
}

const setprivHere = spawnSync('setpriv', ['--pdeathsig', 'KILL', '--', 'true']).status === 0
const withSetpriv = setprivHere ? test : test.skip

withSetpriv(
  'with setpriv: SIGKILL of the publisher ends the build (all its processes) and the JVM',
  async () => {
    const { tree, checker, left } = await killPublisherMidBuild(process.env)
    expect(left).toEqual([])
    const lines = [...tree.values()]
    expect(lines.filter((line) => line.includes(PROCESS_GUARD))).toHaveLength(1) // the build's
    expect(lines.some((line) => line.includes(FAKE_BUILD))).toBe(true)
    // The checker is the JVM's stand-in itself, under the kernel's parent-death signal.
    expect(tree.get(checker)).toMatch(/fake-vnu-service\.ts .*nu\.validator\.servlet\.Main/)
    // The build never finished its export.
    expect(existsSync(path.join(dir, 'out/.build.json'))).toBe(false)
  },
  30_000,
)

test('without setpriv: the guard ends the JVM too, and the build', async () => {
  const { tree, checker, left } = await killPublisherMidBuild({
    ...process.env,
    PATH: path.dirname(NODE),
  })
  expect(left).toEqual([])
  expect(tree.get(checker)).toContain(PROCESS_GUARD)
  expect([...tree.values()].filter((line) => line.includes(PROCESS_GUARD))).toHaveLength(2)
}, 30_000)

test('the guard refuses to run when it leads no process group of its own', () => {
  const result = spawnSync(NODE, [PROCESS_GUARD, 'true'], { encoding: 'utf8' })
  expect(result.status).toBe(2)
  expect(result.stderr).toMatch(/must lead a process group of its own/)
})

test('the guard exits as its command did: its code, or its signal', async () => {
  const run = (script: string) =>
    new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
      const child = spawn(NODE, [PROCESS_GUARD, NODE, '-e', script], { detached: true, stdio: 'pipe' })
      child.once('exit', (code, signal) => resolve([code, signal]))
    })
  expect(await run('process.exit(7)')).toEqual([7, null])
  expect(await run("process.kill(process.pid, 'SIGKILL')")).toEqual([null, 'SIGKILL'])
})
