/**
 * What vetting a preview's drafts costs as drafts add up (lib/content/draft-vetting.ts):
 * the seed plus `count` draft-only case studies, each linking to the next one's page (the
 * link rule queries the view for it), read through the `drafts` perspective.
 *  - In this process (no build needed), the first read of a fresh view, each time with
 *    drafts no verdict was kept for: a valid chain (each draft validated once); the chain
 *    with its last draft broken (the rejection cascades through every draft: each is
 *    validated again once the one it links to is out); and the broken chain again after
 *    another draft was saved (a new version of the file: kept verdicts take it out).
 *    Each: ms, validations (`draftsValidated`) and rule queries run again to check a kept
 *    verdict (`ruleReadsChecked`).
 *  - With the site's build in out/ and the preview server's (`npm run build:preview`), the
 *    whole preview on the broken chain: a fresh publisher's start to its preview ready (the
 *    preview process renders `/` once before it says so, so that includes the first
 *    vetting), then `/`, `/sites` and `/consultation` with the banner, and after another
 *    draft is saved, the home page again.
 */
import { existsSync } from 'node:fs'
import { rmSync } from 'node:fs'
import type { StoredDocument } from '../../lib/content/source.ts'
import { previewCookie, previewPublisher, previewReady, seedFolder, writeDataset } from './editors.ts'
import { keepExport } from './publish.ts'

/** One read's vetting: ms, validations, rule queries run again, drafts left out. */
export type VettingRun = { ms: number; validations: number; readsChecked: number; rejected: number }

/** One preview page's answer: status, ms, and the drafts its banner lists as not shown. */
export type PageRun = { path: string; status: number; ms: number; notShown: number }

export type VettingFigures = {
  drafts: number
  validChain: VettingRun
  brokenChain: VettingRun
  brokenChainSavedAgain: VettingRun
  /** null when the builds are not there */
  pages: { readyMs: number; first: PageRun[]; afterSave: PageRun } | null
}

/** `count` draft-only case studies, each linking to the next one's page; with `brokenEnd`, the last one breaks a rule. */
export function chainedDrafts(
  study: StoredDocument,
  count: number,
  tag: string,
  brokenEnd: boolean,
): StoredDocument[] {
  return Array.from({ length: count }, (_, index) => ({
    ...study,
    _id: `drafts.chain-${tag}-${index}`,
    slug: { _type: 'slug', current: `chain-${tag}-${index}` },
    legacyId: `Chain ${tag} ${index}`,
    title: brokenEnd && index === count - 1 ? '' : `Chain ${index}`,
    order: 100 + index,
    issue: [
      {
        _type: 'block',
        _key: 'b1',
        style: 'normal',
        markDefs: [
          {
            _type: 'link',
            _key: 'l1',
            href: index === count - 1 ? '/case-studies' : `/case-studies/chain-${tag}-${index + 1}`,
          },
        ],
        children: [
          {
            _type: 'span',
            _key: 's1',
            text: 'The next case study of the chain explains the rest of it, at some length, for the card.',
            marks: ['l1'],
          },
        ],
      },
    ],
  }))
}

/**
 * @param count drafts in the chain (the brief's figure is 400)
 * @throws Error when the seed has no case study or FAQ to copy
 */
export async function measurePreviewVetting(count = 400): Promise<VettingFigures> {
  const { dir, file, seed } = seedFolder('bench-vetting-')
  const study = seed.find((doc) => doc._type === 'caseStudy')
  const faq = seed.find((doc) => doc._type === 'faq')
  if (!study || !faq) throw new Error('bench: the seed has no case study or no FAQ to copy')
  const { getPreviewProblems } = await import('../../lib/content/index.ts')
  const { draftsValidated, ruleReadsChecked } = await import('../../lib/content/draft-vetting.ts')
  const { siteSchema } = await import('../../lib/content/schema-rules.ts')
  siteSchema() // compiled once per process, before any figure

  let version = 0
  const vet = async (documents: StoredDocument[]): Promise<VettingRun> => {
    const at = `${file}.${version++}.ndjson`
    writeDataset(at, documents)
    const validations = draftsValidated()
    const reads = ruleReadsChecked()
    const started = performance.now()
    const problems = await getPreviewProblems({
      kind: 'local',
      file: at,
      perspective: 'drafts',
      preview: true,
    })
    return {
      ms: Math.round(performance.now() - started),
      validations: draftsValidated() - validations,
      readsChecked: ruleReadsChecked() - reads,
      rejected: new Set(problems.map((problem) => problem.documentId)).size,
    }
  }
  const saved = { ...faq, _id: `drafts.${faq._id}`, question: `${String(faq.question)} (saved)` }
  const broken = [...seed, ...chainedDrafts(study, count, 'broken', true)]
  try {
    console.log(`bench: vetting ${count} chained drafts...`)
    const figures: VettingFigures = {
      drafts: count,
      validChain: await vet([...seed, ...chainedDrafts(study, count, 'valid', false)]),
      brokenChain: await vet(broken),
      brokenChainSavedAgain: await vet([...broken, saved]),
      pages: null,
    }
    if (existsSync('out/.build.json') && existsSync('.next-preview/prerender-manifest.json'))
      figures.pages = await measurePages(
        file,
        [...seed, ...chainedDrafts(study, count, 'pages', true)],
        saved,
      )
    return figures
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The whole preview on a dataset: start to ready, three pages with the banner, and a saved draft. */
async function measurePages(
  file: string,
  documents: StoredDocument[],
  saved: StoredDocument,
): Promise<NonNullable<VettingFigures['pages']>> {
  console.log('bench: the preview on them (a fresh publisher)...')
  const kept = keepExport()
  writeDataset(file, documents)
  const starting = performance.now()
  const site = await previewPublisher(kept, file)
  try {
    const readyMs = Math.round(await previewReady(site.origin, starting))
    const cookie = await previewCookie(site.origin)
    const page = async (path: string): Promise<PageRun> => {
      const started = performance.now()
      const answer = await fetch(`${site.origin}${path}`, { headers: { cookie } })
      const html = await answer.text()
      const notShown = html.match(/Not shown: drafts that break a rule[\s\S]*?<\/section>/)?.[0]
      return {
        path,
        status: answer.status,
        ms: Math.round(performance.now() - started),
        notShown: notShown?.match(/<code[^>]*>drafts\./g)?.length ?? 0,
      }
    }
    const first = [await page('/'), await page('/sites'), await page('/consultation')]
    writeDataset(file, [...documents, saved])
    const afterSave = await page('/')
    return { readyMs, first, afterSave }
  } finally {
    await site.stop()
    kept.restore()
    kept.drop()
  }
}

/** Prints the figures as tables. */
export function printPreviewVetting(figures: VettingFigures): void {
  console.log(
    `\nVetting a preview's drafts: the seed + ${figures.drafts} draft-only case studies, each linking to the next (first read of a fresh view):`,
  )
  console.table({
    'valid chain': figures.validChain,
    'last one broken (takes them all out)': figures.brokenChain,
    'the same, another draft saved': figures.brokenChainSavedAgain,
  })
  if (!figures.pages) {
    console.log('(the preview pages need the builds: npm run build && npm run build:preview)')
    return
  }
  console.log(
    `The preview on the broken chain: start -> ready ${figures.pages.readyMs} ms (renders / once), then:`,
  )
  console.table([...figures.pages.first, { ...figures.pages.afterSave, path: '/ (another draft saved)' }])
}
