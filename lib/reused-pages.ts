/** Which pages of a dynamic route a build takes from the live build instead of rendering (scripts/build/render-plan.ts). */
import { readFileSync } from 'node:fs'

/** The plan a build writes for Next's render (REUSED_PAGES names the file). */
export type ReusedPages = { reuse: Record<string, string[]> }

let loaded: { file: string; reuse: Map<string, Set<string>> } | undefined

/**
 * The units (values of the route's parameter, e.g. of `/case-studies/[slug]`) to render: all of
 * them, unless the build's plan takes some from the live build.
 * @throws Error when REUSED_PAGES names a file that is not a plan
 */
export function pagesToRender(route: string, units: string[], file = process.env.REUSED_PAGES): string[] {
  if (!file) return units
  if (loaded?.file !== file) {
    const plan = JSON.parse(readFileSync(file, 'utf8')) as Partial<ReusedPages>
    if (!plan.reuse || typeof plan.reuse !== 'object')
      throw new Error(`${file} is not a plan of reused pages`)
    loaded = {
      file,
      reuse: new Map(Object.entries(plan.reuse).map(([name, reused]) => [name, new Set(reused)])),
    }
  }
  const reused = loaded.reuse.get(route)
  return reused ? units.filter((unit) => !reused.has(unit)) : units
}
