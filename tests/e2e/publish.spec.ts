/**
 * The editor's loop, offline, with real builds: a second server (the one `npm start`
 * runs) on a copy of the local dataset; an edit, `npm run publish:local`, and the
 * browser shows it; an invalid edit fails its build and the site stays as it was.
 * Runs after the other browser tests (playwright.config.ts: project "publish"),
 * because its builds take the machine's cores for a while.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'

const PORT = 3190
const BASE = `http://127.0.0.1:${PORT}`
const SECRET = 'e2e-publish-secret'
test.describe.configure({ mode: 'serial', timeout: 240_000 })

let dir: string
let server: ChildProcess
let dataset: string

function edit(id: string, change: (doc: Record<string, unknown>) => void) {
  const lines = readFileSync(dataset, 'utf8').trim().split('\n')
  const next = lines.map((line) => {
    const doc = JSON.parse(line)
    if (doc._id === id) change(doc)
    return JSON.stringify(doc)
  })
  writeFileSync(dataset, next.join('\n') + '\n')
}

function publishLocal() {
  return spawnSync(process.execPath, ['scripts/publish-local.ts', '--url', BASE], {
    env: { ...process.env, SANITY_WEBHOOK_SECRET: SECRET },
    encoding: 'utf8',
    timeout: 200_000,
  })
}

test.beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'e2e-publish-'))
  cpSync('studio/seed', path.join(dir, 'seed'), { recursive: true })
  dataset = path.join(dir, 'seed', 'dataset.ndjson')
  server = spawn(process.execPath, ['server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      SITE_DIR: path.join(dir, 'site'),
      INBOX_FILE: path.join(dir, 'inbox.ndjson'),
      LOCAL_DATASET: dataset,
      SANITY_WEBHOOK_SECRET: SECRET,
      LOG_LEVEL: 'warn',
    },
    stdio: 'inherit',
  })
  for (let i = 0; i < 240; i++) {
    const ok = await fetch(`${BASE}/healthz`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error('the publish server did not start')
})

test.afterAll(() => {
  server?.kill('SIGTERM')
  rmSync(dir, { recursive: true, force: true })
})

test('edit -> publish:local -> the new content is live; an invalid edit leaves it live', async ({ page }) => {
  const [review] = readFileSync(dataset, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((doc) => doc._type === 'review' && doc.placement !== 'strip')
  const text = `Published from the e2e test at ${new Date().toISOString()}.`
  edit(review._id, (doc) => (doc.text = text))

  const published = publishLocal()
  expect(published.stderr).toBe('')
  expect(published.status).toBe(0)
  expect(published.stdout).toMatch(/is live, [\d.]+ s after publishing/)
  await page.goto(`${BASE}/`)
  await expect(page.locator('#reviews')).toContainText(text)

  edit(review._id, (doc) => (doc.stars = 4))
  const failed = publishLocal()
  expect(failed.status).toBe(1)
  expect(failed.stderr).toContain(`Invalid content: document "${review._id}", field "stars": must be 5, is 4`)
  await page.reload()
  await expect(page.locator('#reviews')).toContainText(text)
  const health = await (await fetch(`${BASE}/healthz`)).json()
  expect(health.lastError.message).toContain(`document "${review._id}"`)
})
