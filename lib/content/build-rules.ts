/** The build's own content rules, only what the Studio schema cannot say; each names the document `_id` and field. */
import { createHash } from 'node:crypto'
import path from 'node:path'

/** One broken rule: the document `_id`, the field path and what is wrong, in words. */
export type ContentProblem = { documentId: string; field: string; problem: string }

const lineOf = ({ documentId, field, problem }: ContentProblem) =>
  `Invalid content: document "${documentId}", field "${field}": ${problem}`

/** Content that breaks a rule: one line a problem; `documentId`, `field` and `problem` are the first's. */
export class ContentError extends Error {
  readonly documentId: string
  readonly field: string
  readonly problem: string
  readonly problems: ContentProblem[]

  constructor(documentId: string, field: string, problem: string, more: ContentProblem[] = []) {
    const problems = [{ documentId, field, problem }, ...more]
    super(problems.map(lineOf).join('\n'))
    this.name = 'ContentError'
    this.documentId = documentId
    this.field = field
    this.problem = problem
    this.problems = problems
  }

  static of(problems: ContentProblem[]): ContentError {
    const [first, ...more] = problems
    if (!first) throw new Error('ContentError.of: no problems given')
    return new ContentError(first.documentId, first.field, first.problem, more)
  }
}

export type Check = (value: unknown) => string | null

/** A top-level field to the check it must pass. */
export type Rules = Record<string, Check>

/** The address the build downloads an asset from: an absolute https URL, or absent (a local dataset's). */
export const downloadableUrl: Check = (value) => {
  if (value === null || value === undefined) return null
  try {
    return typeof value === 'string' && new URL(value).protocol === 'https:' ? null : 'must be an https URL'
  } catch {
    return 'must be an https URL'
  }
}

/** An image field's asset reference resolves to an asset document with a width and a height. */
export const imageAsset: Check = (value) => {
  const asset = (value as { asset?: Record<string, unknown> | null } | null | undefined)?.asset
  if (!asset) return 'has no asset, or its asset reference is broken'
  const dimensions = (asset.metadata as { dimensions?: { width?: unknown; height?: unknown } } | undefined)
    ?.dimensions
  if (typeof dimensions?.width !== 'number' || typeof dimensions?.height !== 'number')
    return `asset "${String(asset._id)}" has no dimensions`
  return null
}

/**
 * A local dataset's asset has its file, `<imagesDir>/<originalFilename>`, whose sha1 is `sha1hash`.
 * @throws ContentError naming the asset and the field
 */
export async function assetFileOf(
  asset: { _id: string; originalFilename?: string | null; sha1hash?: string | null },
  imagesDir: string,
  read: (file: string) => Promise<Buffer>,
): Promise<Buffer> {
  if (!asset.originalFilename) throw new ContentError(asset._id, 'originalFilename', 'is missing')
  const file = path.join(imagesDir, asset.originalFilename)
  const bytes = await read(file).catch(() => {
    throw new ContentError(asset._id, 'originalFilename', `no file at ${file}`)
  })
  const sha1 = createHash('sha1').update(bytes).digest('hex')
  if (asset.sha1hash && asset.sha1hash !== sha1)
    throw new ContentError(
      asset._id,
      'sha1hash',
      `${file} has changed (sha1 ${sha1}); regenerate the dataset`,
    )
  return bytes
}

/** Checks one document against its rules and returns it. @throws ContentError naming the first failing field */
export function checkDocument<T extends { _id: string }>(doc: T, rules: Rules): T {
  for (const [field, check] of Object.entries(rules)) {
    const problem = check((doc as Record<string, unknown>)[field])
    if (problem) throw new ContentError(doc._id, field, problem)
  }
  return doc
}

/** What a page cannot do without (`what`, e.g. 'case studies'). @throws Error when it is null or empty */
export function requireFound<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined || (Array.isArray(value) && value.length === 0))
    throw new Error(`Content missing: the dataset has no ${what}; the site cannot be built without it`)
  return value
}
