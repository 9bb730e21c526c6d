/**
 * `npm run audit:fast` and `npm run audit:doors` (`node scripts/audit.ts [PART...]`, default every part): each
 * part prints its table and failures and writes reports/audit-<part>.json; exit 1 when any missed a target.
 * OUT_DIR audits another complete export instead of out/ (no build then).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { DOORS_REPORT_FILE, formatDoors, runDoorsAudit } from './audit/doors.ts'
import { failuresOf, printFastAudit, runFastAudit } from './audit/fast.ts'

/** One part of the audit: runs, reports, and says how many targets it missed. */
type Part = () => Promise<number>

const PARTS: Record<string, Part> = {
  fast: async () => {
    const report = await runFastAudit(process.env.OUT_DIR)
    mkdirSync('reports', { recursive: true })
    writeFileSync('reports/audit-fast.json', JSON.stringify(report, null, 2) + '\n')
    printFastAudit(report)
    console.log('audit:fast: wrote reports/audit-fast.json')
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
