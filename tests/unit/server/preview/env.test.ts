/**
 * @jest-environment node
 *
 * No secret of the publisher's reaches the preview process (server/preview/preview-env.ts),
 * however the operator gives it: in the publisher's environment (`npm start` loads
 * `.env.local` into it) or in any `.env*` file Next loads for the process's folder. The
 * real preview process runs (server/preview/preview-child.ts, watched by
 * helpers/preview-child-probe.ts), started by the real supervisor, in a folder holding
 * those files and no preview build: it loads its settings, then stops where the build is
 * missing, and what its own `process.env` held is read when it ends.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import { publisherLog } from '@/server/log'
import { previewEnv, refuseSecrets, secretsIn, WITHHELD_SETTINGS } from '@/server/preview/preview-env'
import { PreviewProcess } from '@/server/preview/preview-process'
import { NODE } from '../../helpers/publisherFixture'

jest.setTimeout(30_000)

const PROBE = path.resolve('tests/unit/helpers/preview-child-probe.ts')
const CHILD = path.resolve('server/preview/preview-child.ts')
/** A value per secret, each findable in the log. */
const SECRETS = Object.fromEntries(
  WITHHELD_SETTINGS.map((name) => [name, `${name.toLowerCase()}-value-0123456789abcdef`]),
)
const READ_TOKEN = 'read-token-from-a-file-0123456789'
const envFile = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([name, value]) => `${name}=${value}\n`)
    .join('')

/**
 * The publisher's environment as `npm start` has it: these tests' own, less what jest's
 * Next setup put there (NODE_ENV=test, and the mark that tells Next its files are loaded)
 * and any read token (the one the preview gets must come from a file).
 */
function publisherEnv(more: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = { ...process.env, ...more }
  for (const name of ['NODE_ENV', '__NEXT_PROCESSED_ENV', 'SANITY_READ_TOKEN']) delete env[name]
  return env as NodeJS.ProcessEnv
}

let root: string
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'preview-env-'))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

/** Starts the watched preview process as the publisher does, and reads what it held. */
async function runPreview(env: NodeJS.ProcessEnv) {
  const lines: Record<string, unknown>[] = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line))
      done()
    },
  })
  const probe = path.join(root, 'probe.json')
  const preview = new PreviewProcess({
    root,
    log: publisherLog({ level: 'info', secrets: [], destination: sink }),
    studioOrigins: [],
    build: false,
    program: PROBE,
    restartDelayMs: 60_000,
    env: { ...env, PROBE_FILE: probe },
  })
  try {
    await preview.start()
  } finally {
    await preview.close()
  }
  const held = JSON.parse(readFileSync(probe, 'utf8')) as { secrets: string[]; readToken: string | null }
  return { ...held, log: JSON.stringify(lines) }
}

test.each(['.env', '.env.local', '.env.production', '.env.production.local'])(
  'secrets in %s and in the publisher’s environment: none reaches the process; the read token does',
  async (file) => {
    writeFileSync(path.join(root, file), envFile({ ...SECRETS, SANITY_READ_TOKEN: READ_TOKEN }))
    const held = await runPreview(publisherEnv(SECRETS))
    expect(held.secrets).toEqual([])
    // The files were loaded: the setting the preview needs came from one.
    expect(held.readToken).toBe(READ_TOKEN)
    // It went on past its settings, and stopped only for want of a build.
    expect(held.log).toMatch(/prerender-manifest\.json/)
    for (const value of Object.values(SECRETS)) expect(held.log).not.toContain(value)
  },
)

test('started another way, holding a secret from a .env file, the process refuses to start and names it', async () => {
  writeFileSync(
    path.join(root, '.env.local'),
    envFile({ SANITY_PREVIEW_SECRET: SECRETS.SANITY_PREVIEW_SECRET! }),
  )
  const child = spawn(NODE, [CHILD], {
    cwd: root,
    env: publisherEnv({ PREVIEW_SOCKET: path.join(root, 'render.sock') }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk))
  const code = await new Promise((resolve) => child.once('exit', resolve))
  expect(code).toBe(1)
  expect(output).toMatch(/SANITY_PREVIEW_SECRET is set after Next's \.env\* files were loaded/)
  expect(output).not.toMatch(/prerender-manifest/)
  expect(output).not.toContain(SECRETS.SANITY_PREVIEW_SECRET)
})

test('previewEnv sets each secret empty, which Next never overrides; refuseSecrets names only those with a value', () => {
  const env = previewEnv({ ...SECRETS, SANITY_READ_TOKEN: READ_TOKEN, PATH: '/bin', NODE_ENV: 'production' })
  expect(env).toMatchObject({ SANITY_READ_TOKEN: READ_TOKEN, PATH: '/bin' })
  for (const name of WITHHELD_SETTINGS) expect(env[name]).toBe('')
  expect(secretsIn(env)).toEqual([])
  expect(() => refuseSecrets('now', env)).not.toThrow()
  const held = { SANITY_WEBHOOK_SECRET: 'x'.repeat(40), SANITY_API_WRITE_TOKEN: 'y'.repeat(40) }
  expect(() => refuseSecrets('now', held)).toThrow(
    /SANITY_WEBHOOK_SECRET, SANITY_API_WRITE_TOKEN are set now/,
  )
  expect(() => refuseSecrets('now', held)).not.toThrow(/xxxx|yyyy/)
})
