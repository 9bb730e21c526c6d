import { defineField, defineType } from 'sanity'
import { orderField, orderOrdering } from './orderField'

/** An item of the 'Less Grind. More Growth' collapsible list (spec §2, §3). */
export const growthItem = defineType({
  name: 'growthItem',
  title: 'Growth item',
  type: 'document',
  orderings: [orderOrdering],
  fields: [
    defineField({ name: 'title', title: 'Title', type: 'string', validation: (rule) => rule.required() }),
    defineField({
      name: 'content',
      title: 'Content',
      type: 'text',
      rows: 4,
      validation: (rule) => rule.required(),
    }),
    orderField,
  ],
})
