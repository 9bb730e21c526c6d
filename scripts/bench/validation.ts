/**
 * What the schema validation adds to a build (lib/content/schema-rules.ts): loading
 * Sanity's schema and validation packages and compiling the Studio schema once, then
 * validating (a) the seed and (b) a large dataset: the seed plus 1,000 reviews and 200
 * case studies made from its own documents (unique ids, slugs and legacy ids, so the
 * uniqueness rules query a snapshot of that size). Median of `runs` runs each.
 */
import { readFileSync } from 'node:fs'
import { parseNdjson, type StoredDocument } from '../../lib/content/source.ts'
import { median } from './median.ts'

export type ValidationFigures = {
  /** Loading the packages and compiling the schema, once per build (ms) */
  loadMs: number
  seed: { documents: number; ms: number }
  large: { documents: number; ms: number }
}

/** The seed plus `reviews` reviews and `caseStudies` case studies copied from its own. */
export function largeDataset(seed: StoredDocument[], reviews = 1000, caseStudies = 200): StoredDocument[] {
  const review = seed.find((doc) => doc._type === 'review')!
  const study = seed.find((doc) => doc._type === 'caseStudy')!
  const extra: StoredDocument[] = []
  for (let i = 0; i < reviews; i++) extra.push({ ...review, _id: `bench-review-${i}`, order: 100 + i })
  for (let i = 0; i < caseStudies; i++)
    extra.push({
      ...study,
      _id: `bench-case-study-${i}`,
      slug: { _type: 'slug', current: `bench-case-study-${i}` },
      legacyId: `Bench Case Study ${i}`,
      order: 100 + i,
    })
  return [...seed, ...extra]
}

/**
 * @param seedFile the NDJSON seed (studio/seed/dataset.ndjson)
 * @throws Error when either dataset does not validate (the figures would mean nothing)
 */
export async function measureValidation(seedFile: string, runs = 3): Promise<ValidationFigures> {
  const started = performance.now()
  const { siteSchema, validateSnapshot } = await import('../../lib/content/schema-rules.ts')
  siteSchema()
  const loadMs = performance.now() - started
  const seed = parseNdjson(readFileSync(seedFile, 'utf8'), seedFile)
  const large = largeDataset(seed)
  const time = async (documents: StoredDocument[]) => {
    const samples: number[] = []
    let validated = 0
    for (let i = 0; i < runs; i++) {
      const start = performance.now()
      const findings = await validateSnapshot(documents)
      samples.push(performance.now() - start)
      if (findings.errors.length)
        throw new Error(`bench dataset invalid: ${JSON.stringify(findings.errors[0])}`)
      validated = findings.documents
    }
    return { documents: validated, ms: Math.round(median(samples)) }
  }
  return { loadMs: Math.round(loadMs), seed: await time(seed), large: await time(large) }
}
