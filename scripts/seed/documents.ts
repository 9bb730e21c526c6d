/** A seed document as the target project should store it, and whether its stored copy matches. */
import { isDeepStrictEqual } from 'node:util'
import type { StoredDocument } from '../../lib/content/source.ts'

/** Fields the Content Lake sets itself; ignored when comparing, never sent. */
export const SYSTEM_FIELDS = ['_rev', '_createdAt', '_updatedAt'] as const

export type DocumentAction = 'create' | 'update' | 'unchanged'

/** A copy of a document without its SYSTEM_FIELDS. */
export function withoutSystemFields(doc: StoredDocument): StoredDocument {
  const copy: Record<string, unknown> = { ...doc }
  for (const field of SYSTEM_FIELDS) delete copy[field]
  return copy as StoredDocument
}

/** A deep copy of `value` with every `_ref` in `assetIds` (seed asset `_id` -> project's) replaced. */
export function rewriteAssetRefs<Value>(value: Value, assetIds: ReadonlyMap<string, string>): Value {
  if (Array.isArray(value)) return value.map((item) => rewriteAssetRefs(item, assetIds)) as Value
  if (!value || typeof value !== 'object') return value
  const copy = Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, rewriteAssetRefs(item, assetIds)]),
  )
  if (typeof copy._ref === 'string' && assetIds.has(copy._ref)) copy._ref = assetIds.get(copy._ref)
  return copy as Value
}

/** create (none stored), unchanged (equal but for system fields and key order) or update. */
export function documentAction(
  desired: StoredDocument,
  existing: StoredDocument | undefined,
): DocumentAction {
  if (!existing) return 'create'
  return isDeepStrictEqual(withoutSystemFields(existing), withoutSystemFields(desired))
    ? 'unchanged'
    : 'update'
}
