import { defineType } from 'sanity'
import { requiredString, requiredText } from './fields'
import { orderField, orderOrdering } from './orderField'

/** FAQ item (spec §3): question and answer. */
export const faq = defineType({
  name: 'faq',
  title: 'FAQ',
  type: 'document',
  orderings: [orderOrdering],
  fields: [requiredString('question', 'Question'), requiredText('answer', 'Answer', 4), orderField],
  preview: { select: { title: 'question' } },
})
