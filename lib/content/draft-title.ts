/** The name an editor knows a draft by in the preview's banner: plain text, never a stored value as it is. */
import { stegaClean } from '@sanity/client/stega'

const TITLE_FIELDS = ['title', 'name', 'question', 'brandName'] as const

/** The longest title the banner shows, in characters. */
export const TITLE_LENGTH = 80

/** A document's first title field holding text, stega removed, cut to `TITLE_LENGTH`; else its `_id`. */
export function draftTitle(doc: { _id: string; [field: string]: unknown }): string {
  for (const field of TITLE_FIELDS) {
    const value = doc[field]
    if (typeof value !== 'string') continue
    // Cut first: cleaning a megabyte-long name would cost more than the banner is worth.
    const text = stegaClean(value.slice(0, TITLE_LENGTH * 4)).trim()
    if (text) return text.length > TITLE_LENGTH ? `${text.slice(0, TITLE_LENGTH - 1)}…` : text
  }
  return doc._id
}
