/**
 * The fast part of `npm run audit`: axe at two widths on every route, the Nu HTML
 * checker on every exported HTML file and linkinator over the served site, against
 * the build in `out/` (built first when there is no complete one), served by the
 * project's own server.
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { readBuildInfo, readRedirects } from '../../lib/build-output.ts'
import { auditAccessibility } from './axe.ts'
import { checkLinks } from './links.ts'
import type { FastAuditReport } from './report.ts'
import { htmlFilesOf, routesOf } from './routes.ts'
import { serveExport } from './serve.ts'
import { checkHtml } from '../../server/nu-html-checker.ts'

const seconds = (ms: number) => Math.round(ms / 100) / 10

/** Runs a step and measures it. */
async function timed<T>(step: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const started = performance.now()
  const value = await step()
  return { value, seconds: seconds(performance.now() - started) }
}

/**
 * Makes sure `exportDir` holds a complete build (`.build.json`); when the default `out/`
 * does not, runs `npm run build` (which writes `out/`).
 * @returns the seconds the build took (0 when there was one)
 * @throws Error when the build fails, or another folder than `out/` is incomplete
 */
export async function ensureBuild(exportDir: string): Promise<number> {
  if (await readBuildInfo(exportDir)) return 0
  if (exportDir !== path.resolve('out'))
    throw new Error(`${exportDir} is not a complete build (no .build.json)`)
  console.log('audit: no complete build in out/: npm run build')
  const started = performance.now()
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' })
  if (result.status !== 0) throw new Error('npm run build failed')
  return seconds(performance.now() - started)
}

/**
 * The whole fast audit.
 * @param options exportDir: the export (default `out/`); skip: HTML path prefixes that are no route to audit
 */
export async function runFastAudit(
  options: { exportDir?: string; skip?: readonly string[] } = {},
): Promise<FastAuditReport> {
  const started = performance.now()
  const exportDir = path.resolve(options.exportDir ?? 'out')
  const build = await ensureBuild(exportDir)
  const site = await serveExport(exportDir)
  try {
    const info = await readBuildInfo(site.buildDir)
    const files = await htmlFilesOf(site.buildDir)
    const moved = await readRedirects(site.buildDir)
    const routes = routesOf(files, { skip: options.skip, redirects: moved?.redirects })
    // Java's checker runs beside the browser; the crawl after axe, so the two do not share the cores.
    const [html, browser] = await Promise.all([
      timed(() => checkHtml(site.buildDir, files)),
      (async () => {
        const axe = await timed(() =>
          auditAccessibility(
            site.origin,
            routes.map((route) => route.url),
          ),
        )
        const links = await timed(() => checkLinks(site.origin))
        return { axe, links }
      })(),
    ])
    return {
      measuredAt: new Date().toISOString(),
      buildId: info?.id ?? '?',
      seconds: {
        total: seconds(performance.now() - started),
        build,
        axe: browser.axe.seconds,
        html: html.seconds,
        links: browser.links.seconds,
      },
      routes,
      axe: browser.axe.value,
      html: { files, errors: html.value },
      links: browser.links.value,
    }
  } finally {
    await site.stop()
  }
}
