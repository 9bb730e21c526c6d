/**
 * What the publish gate (server/gate.ts) adds to publish-to-live, on a finished build:
 * nothing live (a first build: every page changed), and one changed page against the
 * same build live (a change to one document), each with links only (every page's, both
 * times) and with the Nu HTML checker (on the changed pages).
 * Median of `runs` runs each.
 */
import { cpSync, mkdtempSync, appendFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { javaAvailable } from '../../server/nu-html-checker.ts'
import { checkCandidate } from '../../server/gate.ts'
import { median } from './median.ts'

export type GateFigures = {
  pages: number
  /** ms, median */
  allPagesLinks: number
  allPagesWithHtml: number | null
  onePageLinks: number
  onePageWithHtml: number | null
}

/**
 * @param build a finished build (`out/`)
 * @param changedPage the page whose change is simulated (relative to the build)
 * @throws Error when the build does not pass the gate (the figures would mean nothing)
 */
export async function measureGate(build: string, changedPage = 'sites.html', runs = 3): Promise<GateFigures> {
  const live = mkdtempSync(path.join(os.tmpdir(), 'bench-gate-'))
  cpSync(build, live, { recursive: true })
  appendFileSync(path.join(live, changedPage), '\n')
  const html = javaAvailable()
  const time = async (liveDir: string | null, withHtml: boolean) => {
    const samples: number[] = []
    let pages = 0
    for (let i = 0; i < runs; i++) {
      const result = await checkCandidate(build, liveDir, { html: withHtml })
      if (result.problems.length) throw new Error(`the build fails the gate: ${result.problems[0]}`)
      samples.push(result.ms)
      pages = result.pages.length
    }
    return { ms: median(samples), pages }
  }
  try {
    const all = await time(null, false)
    return {
      pages: all.pages,
      allPagesLinks: all.ms,
      allPagesWithHtml: html ? (await time(null, true)).ms : null,
      onePageLinks: (await time(live, false)).ms,
      onePageWithHtml: html ? (await time(live, true)).ms : null,
    }
  } finally {
    rmSync(live, { recursive: true, force: true })
  }
}
