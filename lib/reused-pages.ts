/**
 * Which pages of a dynamic route this build takes from the live build instead of rendering
 * them (a publish renders only what its change touched: scripts/build/render-plan.ts
 * decides, scripts/build/reuse-pages.ts copies). Each dynamic route's
 * `generateStaticParams` returns only the pages it must render.
 */
import { readFileSync } from 'node:fs'

/** The plan a build writes for Next's render (REUSED_PAGES names the file). */
export type ReusedPages = { reuse: Record<string, string[]> }

let loaded: { file: string; reuse: Map<string, Set<string>> } | undefined

/**
 * @param route the route's pattern, e.g. `/case-studies/[slug]`
 * @param units the value of the route's parameter for every page it has
 * @returns the units to render: all of them, unless the build's plan (REUSED_PAGES) takes
 *   some from the live build
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
