import { defineType } from '@sanity/types'
import { requiredString, requiredText } from './fields.ts'
import { orderField, orderOrdering } from './orderField.ts'
import { excerpt } from './listPreview.ts'

/** An item of the 'Less Grind. More Growth' collapsible list (spec §2, §3). */
export const growthItem = defineType({
  name: 'growthItem',
  title: 'Growth item',
  type: 'document',
  orderings: [orderOrdering],
  fields: [
    requiredString(
      'title',
      'Title',
      'The line visitors click to open the item, in the "Less Grind. More Growth" list on the home page. A short phrase, e.g. "Never miss a lead".',
    ),
    requiredText(
      'content',
      'Content',
      'The paragraph shown when the item is opened. Two or three sentences (about 200 characters); the list shows three items.',
      4,
    ),
    orderField,
  ],
  preview: {
    select: { title: 'title', content: 'content' },
    prepare: ({ title, content }) => ({
      title: title || 'Untitled growth item',
      subtitle: excerpt(content) || 'No content yet',
    }),
  },
})
