import { defineField, defineType } from 'sanity'
import { orderField, orderOrdering } from './orderField'

/** Audience card in 'IS THIS YOU' (spec §2): title and description. */
export const audienceCard = defineType({
  name: 'audienceCard',
  title: 'Audience card',
  type: 'document',
  orderings: [orderOrdering],
  fields: [
    defineField({ name: 'title', title: 'Title', type: 'string', validation: (rule) => rule.required() }),
    defineField({
      name: 'description',
      title: 'Description',
      type: 'text',
      rows: 3,
      validation: (rule) => rule.required(),
    }),
    orderField,
  ],
})
