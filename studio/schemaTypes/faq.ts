import { defineType } from '@sanity/types'
import { requiredString, requiredText } from './fields.ts'
import { orderField, orderOrdering } from './orderField.ts'
import { excerpt } from './listPreview.ts'

/** FAQ item (spec §3): question and answer. */
export const faq = defineType({
  name: 'faq',
  title: 'FAQ',
  type: 'document',
  orderings: [orderOrdering],
  fields: [
    requiredString(
      'question',
      'Question',
      'The question as a visitor would ask it, e.g. "How long does implementation take?". Shown in the FAQs section of the home page.',
    ),
    requiredText(
      'answer',
      'Answer',
      'The answer shown under the question in the FAQs section. Plain text, two or three sentences (up to about 230 characters reads well).',
      4,
    ),
    orderField,
  ],
  preview: {
    select: { title: 'question', answer: 'answer' },
    prepare: ({ title, answer }) => ({
      title: title || 'Untitled question',
      subtitle: excerpt(answer) || 'No answer yet',
    }),
  },
})
