/**
 * `npm run audit:fast` and `npm run audit:doors` (README, "Commands"): a thin CLI over
 * scripts/audit/. `npm run audit` is `audit:fast`, then `audit:lighthouse` (its own CLI,
 * scripts/audit-lighthouse.ts).
 * Usage: node scripts/audit.ts [PART...]   (default: every part)
 *  - fast: axe (390 and 1280 px) on every route, the Nu HTML checker on every
 *    exported HTML file, linkinator over the served site; writes
 *    reports/audit-fast.json and reports/audit-fast.md.
 *  - doors: the editors' doors tried as an attacker would, against a publisher of its own
 *    on the build (in a folder with planted `.env*` secrets, on a copy of the seed):
 *    redirects, guessing, sessions, anonymous status and health, crafted ids, a published
 *    SVG with a script (a real publish: one build), the secrets the preview process holds,
 *    hostile and broken drafts, stega, frames, a chain of 400 drafts, one session's fair
 *    share, the preview proxy over raw sockets and after a crash, the publish journal,
 *    secrets in the log; about 2.5 minutes on 2 cores; writes reports/audit-doors.json
 *    (the e2e suite runs it too: tests/e2e/doors.setup.ts, one test a door).
 * Each part prints its table and its failures; the exit code is 1 when any part missed a target.
 * OUT_DIR audits another complete export instead of `out/` (no build then).
 * A new part is one more entry in PARTS (and an `audit:<part>` script in package.json).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { DOORS_REPORT_FILE, formatDoors, runDoorsAudit } from './audit/doors.ts'
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
    writeFileSync(DOORS_REPORT_FILE, JSON.stringify(report, null, 2) + '\n')
    console.log(formatDoors(report))
    console.log(`audit:doors: wrote ${DOORS_REPORT_FILE}`)
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
