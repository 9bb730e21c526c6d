/**
 * `npm run audit:fast` and `npm run audit:doors` (README, "Commands"): a thin CLI over
 * scripts/audit/. `npm run audit` is `audit:fast`, then `audit:lighthouse` (its own CLI,
 * scripts/audit-lighthouse.ts).
 * Usage: node scripts/audit.ts [PART...]   (default: every part)
 *  - fast: axe (390 and 1280 px) on every route, the Nu HTML checker on every
 *    exported HTML file, linkinator over the served site; writes
 *    reports/audit-fast.json and reports/audit-fast.md.
 *  - doors: the editors' doors tried as an attacker would (redirects, guessing, sessions,
 *    anonymous status and health, crafted ids, secrets in the log) against the publisher
 *    on the build; writes reports/audit-doors.json.
 * Each part prints its table and its failures; the exit code is 1 when any part missed a target.
 * OUT_DIR audits another complete export instead of `out/` (no build then).
 * A new part is one more entry in PARTS (and an `audit:<part>` script in package.json).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { formatDoors, runDoorsAudit } from './audit/doors.ts'
import { runFastAudit } from './audit/fast.ts'
import { failuresOf, formatMarkdown, formatText } from './audit/report.ts'

/** One part of the audit: runs, reports, and says how many targets it missed. */
type Part = () => Promise<number>

const PARTS: Record<string, Part> = {
  fast: async () => {
    const report = await runFastAudit({ exportDir: process.env.OUT_DIR })
    mkdirSync('reports', { recursive: true })
    writeFileSync('reports/audit-fast.json', JSON.stringify(report, null, 2) + '\n')
    writeFileSync('reports/audit-fast.md', formatMarkdown(report))
    console.log(formatText(report))
    console.log('audit:fast: wrote reports/audit-fast.json and reports/audit-fast.md')
    return failuresOf(report).length
  },
  doors: async () => {
    const report = await runDoorsAudit(process.env.OUT_DIR)
    mkdirSync('reports', { recursive: true })
    writeFileSync('reports/audit-doors.json', JSON.stringify(report, null, 2) + '\n')
    console.log(formatDoors(report))
    console.log('audit:doors: wrote reports/audit-doors.json')
    return report.through.length
  },
}

const requested = process.argv.slice(2)
const unknown = requested.filter((name) => !(name in PARTS))
if (unknown.length) {
  console.error(`audit: unknown part(s) ${unknown.join(', ')}; parts: ${Object.keys(PARTS).join(', ')}`)
  process.exit(2)
}
let missed = 0
for (const name of requested.length ? requested : Object.keys(PARTS)) {
  console.log(`audit: ${name}...`)
  missed += await PARTS[name]!()
}
if (missed > 0) {
  console.error(`audit: ${missed} target(s) missed`)
  process.exitCode = 1
}
