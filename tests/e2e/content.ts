/** The seed dataset as e2e tests expect to see it on the built site. */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parseNdjson, type StoredDocument } from '../../lib/content/source'

const file = path.resolve(process.env.LOCAL_DATASET ?? 'studio/seed/dataset.ndjson')
const documents = parseNdjson(readFileSync(file, 'utf8'), file)

/** Published documents of one type, in editors' order. */
export function documentsOf(type: string): StoredDocument[] {
  return documents
    .filter((doc) => doc._type === type)
    .sort((a, b) => Number(a.order ?? 0) - Number(b.order ?? 0))
}

type SettingsText =
  | 'heroEyebrow'
  | 'heroHeadline'
  | 'heroSubheadline'
  | 'contactEmail'
  | 'contactPhone'
  | 'contactIntro'
  | 'bookingWidgetUrl'
  | 'contactWebhookUrl'

/** The site settings singleton's texts. */
export const settings = documents.find((doc) => doc._id === 'siteSettings') as unknown as Record<
  SettingsText,
  string
>

/**
 * One page of each kind, plus a missing one: the routes audited as a set. /studio is
 * here as the e2e build has it (no Sanity project): the page that explains what to set.
 */
export const SAMPLE_ROUTES = [
  '/',
  '/consultation',
  '/case-studies',
  '/case-studies/osteopath-lancing',
  '/sites',
  '/studio',
  '/no-such-page',
]
