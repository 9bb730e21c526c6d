import { defineField, defineType } from 'sanity'
import { orderField, orderOrdering } from './orderField'

/** FAQ item (spec §3): question and answer. */
export const faq = defineType({
  name: 'faq',
  title: 'FAQ',
  type: 'document',
  orderings: [orderOrdering],
  fields: [
    defineField({
      name: 'question',
      title: 'Question',
      type: 'string',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'answer',
      title: 'Answer',
      type: 'text',
      rows: 4,
      validation: (rule) => rule.required(),
    }),
    orderField,
  ],
  preview: { select: { title: 'question' } },
})
