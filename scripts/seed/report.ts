/** Turns a seed plan and result into the lines the seed script prints. */
import type { SeedPlan, SeedResult } from './sync.ts'

/** One line per image and per document, with what seeding does to it. */
export function describePlan(plan: SeedPlan): string[] {
  const line = (action: string, what: string) => `  ${action.padEnd(9)} ${what}`
  return [
    ...plan.images.map(({ action, image, assetId }) =>
      line(action, `image ${image.filename}${action === 'exists' ? ` (${assetId})` : ''}`),
    ),
    ...plan.documents.map(({ action, id, type }) => line(action, `${type} ${id}`)),
  ]
}

/** e.g. "10 images to upload, 0 already there; 34 documents to create, 0 to update, 0 unchanged" */
export function summarizePlan(plan: SeedPlan): string {
  const images = (action: string) => plan.images.filter((image) => image.action === action).length
  const documents = (action: string) => plan.documents.filter((doc) => doc.action === action).length
  return (
    `${images('upload')} images to upload, ${images('exists')} already there; ` +
    `${documents('create')} documents to create, ${documents('update')} to update, ` +
    `${documents('unchanged')} unchanged`
  )
}

/** Whether applying `plan` would upload or write nothing. */
export function isUpToDate(plan: SeedPlan): boolean {
  return (
    plan.images.every((image) => image.action === 'exists') &&
    plan.documents.every((doc) => doc.action === 'unchanged')
  )
}

/** e.g. "uploaded 10 images, wrote 34 documents in 1 transaction" */
export function summarizeResult(result: SeedResult): string {
  const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`
  return (
    `uploaded ${plural(result.uploaded.length, 'image')}, wrote ${plural(result.written.length, 'document')} ` +
    `in ${plural(result.transactions, 'transaction')}`
  )
}
