import { defineField, defineType } from 'sanity'
import { imageWithAlt } from './imageWithAlt'
import { requiredString, requiredText } from './fields'
import { orderField, orderOrdering } from './orderField'

/** Portfolio site (spec §3): shown on /sites with a 'Visit site' link. */
export const portfolioSite = defineType({
  name: 'portfolioSite',
  title: 'Portfolio site',
  type: 'document',
  orderings: [orderOrdering],
  fields: [
    requiredString('title', 'Title'),
    requiredText('description', 'Description'),
    imageWithAlt('image', 'Screenshot'),
    defineField({
      name: 'url',
      title: 'Address',
      type: 'url',
      validation: (rule) => rule.required().uri({ scheme: ['https'] }),
    }),
    orderField,
  ],
  preview: { select: { title: 'title', subtitle: 'url', media: 'image' } },
})
