import { defineField } from '@sanity/types'

/** The name of the shared order field: every list on the site sorts by it, ascending. */
export const ORDER_FIELD = 'order'

/**
 * The shared `order` field: lists on the site sort by it, ascending.
 * Returns a Sanity field definition (integer, required, 0 or more).
 */
export const orderField = defineField({
  name: ORDER_FIELD,
  title: 'Order',
  description:
    'Position in its list on the site: lower numbers come first (0, 1, 2 …). Whole numbers only. Two items with the same number may swap places.',
  type: 'number',
  validation: (rule) => rule.required().integer().min(0),
})

/** Sort by the order field, lowest first: the order of every list on the site. */
export const ORDER_ASC = [{ field: ORDER_FIELD, direction: 'asc' as const }]

/** Editors' sort option for every ordered type (the Studio list's sort menu offers it). */
export const orderOrdering = {
  title: 'Order on the site',
  name: 'orderAsc',
  by: ORDER_ASC,
}
