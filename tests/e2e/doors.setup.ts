/**
 * Runs `npm run audit:doors` (scripts/audit/doors.ts) once against the build, with a
 * publisher of its own (in a folder of its own, on copies of the seed and of `out/`), and
 * writes its report where the CLI does; tests/e2e/doors.spec.ts reads it, one test a
 * door. Runs after every other browser test, alone (playwright.config.ts, project
 * "doors-audit"): its publish is a real build, and some doors are timed.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { DOORS_REPORT_FILE, formatDoors, runDoorsAudit } from '../../scripts/audit/doors'
import { test } from './fixtures'

test('the doors audit runs against the build', async () => {
  // About 30 s on a quiet 2-core machine, minutes on a loaded one.
  test.setTimeout(600_000)
  // The rebuilds' publishers take out/ into their own stores: build it again if it is gone.
  if (!existsSync('out/.build.json')) {
    const build = spawnSync('npm', ['run', 'build'], { encoding: 'utf8' })
    if (build.status !== 0) throw new Error(`doors audit: npm run build failed\n${build.stderr}`)
  }
  const report = await runDoorsAudit(path.resolve('out'))
  mkdirSync(path.dirname(DOORS_REPORT_FILE), { recursive: true })
  writeFileSync(DOORS_REPORT_FILE, JSON.stringify(report, null, 2) + '\n')
  console.log(formatDoors(report))
})
