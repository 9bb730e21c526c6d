/**
 * The name an editor knows a draft by, for the preview's banner: a plain string taken from
 * the document, never its raw value. A draft's fields can hold anything an editor or a
 * script saved (an object where a name belongs, a megabyte of text, invisible stega
 * characters), and the banner renders this as text.
 * Loaded only by a preview's vetting (draft-vetting.ts), like the client's stega it imports.
 */
import { stegaClean } from '@sanity/client/stega'

/** The fields that name a document of this site's schema, first found wins. */
const TITLE_FIELDS = ['title', 'name', 'question', 'brandName'] as const

/** The longest title the banner shows, in characters (a card title's limit in the schema is 80). */
export const TITLE_LENGTH = 80

/**
 * A document's title for the banner: its first title field that holds a non-empty string,
 * stega removed (its own, which would otherwise give the banner an edit link of its own),
 * cut to `TITLE_LENGTH` characters.
 * @param doc a document as the view shows it (any shape)
 * @returns that title, or the document's `_id` when no title field holds text
 */
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
