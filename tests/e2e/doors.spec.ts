/**
 * The editors' doors as tests, one a door: each fails naming every attempt at it that got
 * through, from the report tests/e2e/doors.setup.ts (`npm run audit:doors`) wrote in this
 * run (playwright.config.ts: project "doors" depends on "doors-audit"; with `--no-deps` it
 * reads the last report).
 */
import { readFileSync } from 'node:fs'
import { DOORS, DOORS_REPORT_FILE, type DoorsReport } from '../../scripts/audit/doors'
import { expect, test } from './fixtures'

let report: DoorsReport

test.beforeAll(() => {
  report = JSON.parse(readFileSync(DOORS_REPORT_FILE, 'utf8')) as DoorsReport
})

for (const door of DOORS)
  test(`door: ${door}`, async () => {
    const mine = report.attempts.filter((entry) => entry.door === door)
    expect(mine.length, `the audit made no attempt at the ${door} door`).toBeGreaterThan(0)
    for (const entry of mine)
      await test.step(`${entry.through ? 'THROUGH' : 'held'}: ${entry.attempt}`, async () => {
        expect.soft(entry.through, `${entry.attempt}${entry.detail ? ` (${entry.detail})` : ''}`).toBe(false)
      })
  })
