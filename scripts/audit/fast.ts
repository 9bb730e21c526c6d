/** `npm run audit:fast`: axe at two widths on every route, the Nu HTML checker on every HTML file and linkinator over the site, on the served build. */
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { readBuildInfo, readRedirects } from '../../lib/build-output.ts'
import { checkHtml, type HtmlError } from '../../server/publishing/nu-html-checker.ts'
import { auditAccessibility, type AxePageResult } from './axe.ts'
import { checkLinks, type LinkReport } from './links.ts'
import { htmlFilesOf, routesOf } from './routes.ts'
import { serveExport } from './serve.ts'

/** Everything the fast audit measured (seconds per step). */
export type FastAuditReport = {
  measuredAt: string
  buildId: string
  seconds: Record<string, number>
  routes: ReturnType<typeof routesOf>
  axe: AxePageResult[]
  html: { files: string[]; errors: HtmlError[] }
  links: LinkReport
}

/** The whole fast audit on `exportDir` (default out/, built first when it holds no complete build); throws when another folder is incomplete. */
export async function runFastAudit(dir?: string): Promise<FastAuditReport> {
  const exportDir = path.resolve(dir ?? 'out')
  const seconds: Record<string, number> = {}
  const timed = async <T>(name: string, step: () => Promise<T>): Promise<T> => {
    const started = performance.now()
    const value = await step()
    seconds[name] = Math.round((performance.now() - started) / 100) / 10
    return value
  }
  if (!(await readBuildInfo(exportDir))) {
    if (exportDir !== path.resolve('out'))
      throw new Error(`${exportDir} is not a complete build (no .build.json)`)
    console.log('audit: no complete build in out/: npm run build')
    await timed('build', async () => {
      if (spawnSync('npm', ['run', 'build'], { stdio: 'inherit' }).status !== 0)
        throw new Error('npm run build failed')
    })
  }
  const site = await serveExport(exportDir)
  try {
    const files = await htmlFilesOf(site.buildDir)
    const redirects = (await readRedirects(site.buildDir))?.redirects
    const routes = routesOf(files, { redirects })
    // Java's checker runs beside the browser; the crawl after axe, so the two do not share the cores.
    const [errors, axe, links] = await Promise.all([
      timed('html', () => checkHtml(site.buildDir, files)),
      timed('axe', () =>
        auditAccessibility(
          site.origin,
          routes.map((route) => route.url),
        ),
      ),
    ]).then(
      async ([errors, axe]) => [errors, axe, await timed('links', () => checkLinks(site.origin))] as const,
    )
    return {
      measuredAt: new Date().toISOString(),
      buildId: (await readBuildInfo(site.buildDir))?.id ?? '?',
      seconds,
      routes,
      axe,
      html: { files, errors },
      links,
    }
  } finally {
    await site.stop()
  }
}

/** One line a person can act on per missed target: 0 axe violations, Nu errors and broken internal links. */
export function failuresOf(report: FastAuditReport): string[] {
  return [
    ...report.axe.flatMap((page) =>
      page.violations.flatMap((v) =>
        v.targets.map(
          (target) => `axe ${v.rule} (${v.impact ?? '?'}) on ${page.route} at ${page.width} px: ${target}`,
        ),
      ),
    ),
    ...report.html.errors.map(
      (e) => `HTML ${e.file}${e.line ? `:${e.line}:${e.column ?? 0}` : ''}: ${e.message}`,
    ),
    ...report.links.broken.map(
      (link) =>
        `broken link ${link.url} (${link.status ?? 'no answer'}${link.reason ? `: ${link.reason}` : ''}) on ${link.parents.join(', ') || '?'}`,
    ),
  ]
}

/** Prints a row per HTML file (axe violations per width, Nu errors), the links, the time and the failures. */
export function printFastAudit(report: FastAuditReport): void {
  const count = <T>(list: T[], test: (item: T) => boolean) => list.filter(test).length
  console.table(
    Object.fromEntries(
      report.html.files.map((file) => {
        const route = report.routes.find((each) => each.file === file)?.url
        const axe = report.axe.filter((page) => page.route === route)
        return [
          route ? decodeURI(route) : `(no route) ${file}`,
          {
            ...Object.fromEntries(axe.map((page) => [`axe ${page.width}px`, page.violations.length])),
            'HTML errors': count(report.html.errors, (error) => error.file === file),
          },
        ]
      }),
    ),
  )
  const { checked, skipped, broken } = report.links
  const failures = failuresOf(report)
  console.log(
    `links: ${checked} OK, ${skipped} external skipped, ${broken.length} broken; seconds ${JSON.stringify(report.seconds)}`,
  )
  console.log(
    failures.length ? `FAILED (${failures.length}):\n  - ${failures.join('\n  - ')}` : 'all targets met',
  )
}
