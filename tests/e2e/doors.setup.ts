/**
 * Runs `npm run audit:doors` (scripts/audit/doors.ts) once against the build, with a
 * publisher of its own (in a folder of its own, on copies of the seed and of `out/`), and
 * writes its report where the CLI does; tests/e2e/doors.spec.ts reads it, one test a
 * door. Runs after every other browser test, alone (playwright.config.ts, project
 * "doors-audit"): its publish is a real build, and some doors are timed.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { DOORS_REPORT_FILE, formatDoors, runDoorsAudit } from '../../scripts/audit/doors'
import { test } from './fixtures'

test('the doors audit runs against the build', async () => {
  // About 2.5 minutes on 2 cores.
  test.setTimeout(480_000)
  const report = await runDoorsAudit(path.resolve('out'))
  mkdirSync(path.dirname(DOORS_REPORT_FILE), { recursive: true })
  writeFileSync(DOORS_REPORT_FILE, JSON.stringify(report, null, 2) + '\n')
  console.log(formatDoors(report))
})
