/** The shape of a document as stored, and the references it holds. */

/** A document as stored: at least `_id` and `_type`. */
export type StoredDocument = { _id: string; _type: string; [field: string]: unknown }

/**
 * Every `_id` the documents reference at any depth (each `_ref`, weak or strong, as GROQ's
 * `references()` reads them), each once.
 */
export function referencedIds(documents: readonly StoredDocument[]): Set<string> {
  const ids = new Set<string>()
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) walk(item)
    else if (value && typeof value === 'object') {
      const ref = (value as { _ref?: unknown })._ref
      if (typeof ref === 'string') ids.add(ref)
      for (const child of Object.values(value)) walk(child)
    }
  }
  for (const doc of documents) walk(doc)
  return ids
}
