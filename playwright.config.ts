import { defineConfig, devices } from '@playwright/test'
import { E2E_INBOX_FILE, E2E_SITE_DIR } from './tests/e2e/server'

/** Browser tests against the site `npm start` serves; CHROMIUM_PATH overrides Debian's chromium (empty: Playwright's own). */
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const port = Number(process.env.E2E_PORT ?? 3100)

const launchOptions = {
  executablePath: executablePath || undefined,
  args: [
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-quic',
    '--no-first-run',
  ],
}

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  forbidOnly: Boolean(process.env.CI),
  // On CI a stalled timing test would keep every later project from running; locally a flake shows at once.
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: /(rebuilds|next-export-contract|doors)\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], launchOptions },
    },
    {
      // Real builds (the publisher's rebuilds, the contract app's `next build`) take the
      // machine's cores for a while: run them after everything else.
      name: 'rebuilds',
      testMatch: /(rebuilds|next-export-contract)\.spec\.ts/,
      dependencies: ['chromium'],
      use: { ...devices['Desktop Chrome'], launchOptions },
    },
    {
      // The editors' doors (scripts/audit/doors.ts), run once: its publisher publishes with a
      // real build (sharing .next/ with the rebuilds' builds) and some doors are timed: last,
      // and alone. Then one test a door, reading its report.
      name: 'doors-audit',
      testMatch: /doors\.setup\.ts/,
      dependencies: ['rebuilds'],
    },
    {
      name: 'doors',
      testMatch: /doors\.spec\.ts/,
      dependencies: ['doors-audit'],
    },
  ],
  // The server `npm start` runs, on its own builds folder, emptied first: with nothing live,
  // it checks the fresh `npm run build` and puts it live before it answers (with an older
  // build live it would answer from that one while the new one passes the publish gate).
  webServer: {
    command: `rm -rf '${E2E_SITE_DIR}' && node server/main.ts`,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      SITE_DIR: E2E_SITE_DIR,
      INBOX_FILE: E2E_INBOX_FILE,
      INBOX_RATE_LIMIT: '1000/60',
      LOG_LEVEL: 'warn',
    },
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 240_000,
  },
})
