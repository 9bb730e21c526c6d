import { defineType } from 'sanity'
import { requiredString, requiredText } from './fields'
import { orderField, orderOrdering } from './orderField'

/** An item of the 'Less Grind. More Growth' collapsible list (spec §2, §3). */
export const growthItem = defineType({
  name: 'growthItem',
  title: 'Growth item',
  type: 'document',
  orderings: [orderOrdering],
  fields: [requiredString('title', 'Title'), requiredText('content', 'Content', 4), orderField],
})
