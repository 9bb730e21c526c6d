import { defineField, defineType } from 'sanity'
import { imageWithAlt } from './imageWithAlt'
import { orderField, orderOrdering } from './orderField'

/** Portfolio site (spec §3): shown on /sites with a 'Visit site' link. */
export const portfolioSite = defineType({
  name: 'portfolioSite',
  title: 'Portfolio site',
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
