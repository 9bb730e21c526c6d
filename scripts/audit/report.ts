/**
 * The fast audit's report: what each check found, the failures as a list
 * (rule id, selector, page), a terminal table and a Markdown page.
 */
import type { AxePageResult } from './axe.ts'
import type { LinkReport } from './links.ts'
import type { Route } from './routes.ts'
import type { HtmlError } from '../../server/nu-html-checker.ts'

/** Everything `audit:fast` measured. */
export type FastAuditReport = {
  measuredAt: string
  buildId: string
  seconds: { total: number; build: number; axe: number; html: number; links: number }
  routes: Route[]
  axe: AxePageResult[]
  html: { files: string[]; errors: HtmlError[] }
  links: LinkReport
}

/** One missed target, in a line a person can act on. */
export function failuresOf(report: FastAuditReport): string[] {
  const axe = report.axe.flatMap((page) =>
    page.violations.flatMap((violation) =>
      violation.targets.map(
        (target) =>
          `axe ${violation.rule} (${violation.impact ?? '?'}) on ${page.route} at ${page.width} px: ${target}`,
      ),
    ),
  )
  const html = report.html.errors.map(
    (error) =>
      `HTML ${error.file}${error.line ? `:${error.line}:${error.column ?? 0}` : ''}: ${error.message}`,
  )
  const links = report.links.broken.map(
    (link) =>
      `broken link ${link.url} (${link.status ?? 'no answer'}${link.reason ? `: ${link.reason}` : ''}) on ${link.parents.join(', ') || '?'}`,
  )
  return [...axe, ...html, ...links]
}

/** A plain-text table with aligned columns. */
function textTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  )
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd()
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n')
}

/** Rows: one per route, a column per width (axe violations), then the page's HTML errors. */
function rowsOf(report: FastAuditReport): { header: string[]; rows: string[][] } {
  const widths = [...new Set(report.axe.map((page) => page.width))].sort((a, b) => a - b)
  const header = ['route', ...widths.map((width) => `axe ${width}px`), 'file', 'HTML errors']
  const rows = report.routes.map((route) => [
    decodeURI(route.url),
    ...widths.map((width) => {
      const page = report.axe.find((result) => result.route === route.url && result.width === width)
      return page ? String(page.violations.length) : '-'
    }),
    route.file,
    String(report.html.errors.filter((error) => error.file === route.file).length),
  ])
  // HTML files that are no route (e.g. Next's _not-found.html) are still checked.
  for (const file of report.html.files.filter((file) => !report.routes.some((route) => route.file === file)))
    rows.push([
      '(no route)',
      ...widths.map(() => '-'),
      file,
      String(report.html.errors.filter((e) => e.file === file).length),
    ])
  return { header, rows }
}

/** The summary printed on the terminal. */
export function formatText(report: FastAuditReport): string {
  const { header, rows } = rowsOf(report)
  const failures = failuresOf(report)
  return [
    textTable(header, rows),
    '',
    `links: ${report.links.checked} OK, ${report.links.skipped} external skipped, ${report.links.broken.length} broken`,
    `time: ${report.seconds.total} s (build ${report.seconds.build} s, axe ${report.seconds.axe} s, ` +
      `HTML ${report.seconds.html} s, links ${report.seconds.links} s)`,
    failures.length
      ? `\nFAILED (${failures.length}):\n${failures.map((failure) => `  - ${failure}`).join('\n')}`
      : '\nall targets met',
  ].join('\n')
}

const escapeCell = (text: string) => text.replace(/\|/g, '\\|')

/** The same as Markdown (reports/audit-fast.md). */
export function formatMarkdown(report: FastAuditReport): string {
  const { header, rows } = rowsOf(report)
  const failures = failuresOf(report)
  return [
    `# Fast audit, build ${report.buildId}`,
    '',
    `Measured ${report.measuredAt} in ${report.seconds.total} s. Targets: 0 axe violations ` +
      '(WCAG 2.0/2.1 A+AA, 2.2 AA, best practices), 0 Nu HTML checker errors, 0 broken internal links.',
    '',
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(escapeCell).join(' | ')} |`),
    '',
    `Links: ${report.links.checked} OK, ${report.links.skipped} external skipped, ${report.links.broken.length} broken.`,
    '',
    failures.length
      ? `## Failed (${failures.length})\n\n${failures.map((f) => `- ${escapeCell(f)}`).join('\n')}`
      : 'All targets met.',
    '',
  ].join('\n')
}
