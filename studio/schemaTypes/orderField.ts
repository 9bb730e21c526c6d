import { defineField } from 'sanity'

/**
 * The shared `order` field: lists on the site sort by it, ascending.
 * Returns a Sanity field definition (integer, required, 0 or more).
 */
export const orderField = defineField({
  name: 'order',
  title: 'Order',
  description: 'Position in its list on the site: lower numbers come first.',
  type: 'number',
  validation: (rule) => rule.required().integer().min(0),
})

/** Editors' sort option for every ordered type. */
export const orderOrdering = {
  title: 'Order on the site',
  name: 'orderAsc',
  by: [{ field: 'order', direction: 'asc' as const }],
}
