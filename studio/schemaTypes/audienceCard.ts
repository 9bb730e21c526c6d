import { defineType } from '@sanity/types'
import { requiredString, requiredText } from './fields.ts'
import { orderField, orderOrdering } from './orderField.ts'
import { excerpt } from './listPreview.ts'

/** Audience card in 'IS THIS YOU' (spec §2): title and description. */
export const audienceCard = defineType({
  name: 'audienceCard',
  title: 'Audience card',
  type: 'document',
  orderings: [orderOrdering],
  fields: [
    requiredString(
      'title',
      'Title',
      'Who the card speaks to, e.g. "Tradesmen". The heading of one card in the "IS THIS YOU" section of the home page. Keep it to one to three words.',
    ),
    requiredText(
      'description',
      'Description',
      'One or two sentences under the card heading: the problem this audience has and how we help. About 90 to 120 characters fits the card best.',
    ),
    orderField,
  ],
  preview: {
    select: { title: 'title', description: 'description' },
    prepare: ({ title, description }) => ({
      title: title || 'Untitled audience card',
      subtitle: excerpt(description) || 'No description yet',
    }),
  },
})
