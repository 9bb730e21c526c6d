/**
 * Pure helpers for seeding: what a seed document looks like once its image
 * references point at the target project's assets, and whether the stored copy
 * already matches it.
 */
import { isDeepStrictEqual } from 'node:util'
import type { StoredDocument } from '../../lib/content/source.ts'

/** Fields the Content Lake sets itself; ignored when comparing, never sent. */
export const SYSTEM_FIELDS = ['_rev', '_createdAt', '_updatedAt'] as const

/** What seeding does to one document. */
export type DocumentAction = 'create' | 'update' | 'unchanged'

/**
 * @param doc a document, e.g. as fetched (`{ _id, _type, _rev, ... }`)
 * @returns a copy without `_rev`, `_createdAt`, `_updatedAt`
 */
export function withoutSystemFields(doc: StoredDocument): StoredDocument {
  const copy: Record<string, unknown> = { ...doc }
  for (const field of SYSTEM_FIELDS) delete copy[field]
  return copy as StoredDocument
}

/**
 * @param value a document or any part of it
 * @param assetIds the seed's asset `_id` -> the target project's asset `_id`
 * @returns a deep copy in which every `_ref` found in `assetIds` is replaced
 */
export function rewriteAssetRefs<Value>(value: Value, assetIds: ReadonlyMap<string, string>): Value {
  if (Array.isArray(value)) return value.map((item) => rewriteAssetRefs(item, assetIds)) as Value
  if (!value || typeof value !== 'object') return value
  const copy = Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, rewriteAssetRefs(item, assetIds)]),
  )
  if (typeof copy._ref === 'string' && assetIds.has(copy._ref)) copy._ref = assetIds.get(copy._ref)
  return copy as Value
}

/**
 * @param desired the document as the seed wants it (references already rewritten)
 * @param existing the stored document with that `_id`, or undefined when there is none
 * @returns create (none stored), unchanged (equal but for system fields and key order) or update
 */
export function documentAction(
  desired: StoredDocument,
  existing: StoredDocument | undefined,
): DocumentAction {
  if (!existing) return 'create'
  return isDeepStrictEqual(withoutSystemFields(existing), withoutSystemFields(desired))
    ? 'unchanged'
    : 'update'
}
