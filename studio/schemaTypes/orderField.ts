import { defineField } from '@sanity/types'

export const ORDER_FIELD = 'order'

/** The shared `order` field: every list on the site sorts by it, ascending. */
export const orderField = defineField({
  name: ORDER_FIELD,
  title: 'Order',
  description:
    'Position in its list on the site: lower numbers come first (0, 1, 2 …). Whole numbers only. Two items with the same number may swap places.',
  type: 'number',
  validation: (rule) => rule.required().integer().min(0),
})

export const ORDER_ASC = [{ field: ORDER_FIELD, direction: 'asc' as const }]

/** The Studio list menu's sort option for every ordered type. */
export const orderOrdering = {
  title: 'Order on the site',
  name: 'orderAsc',
  by: ORDER_ASC,
}
