import { defineField, defineType } from 'sanity'
import { requiredString } from './fields'
import { orderField, orderOrdering } from './orderField'

/** Where a review shows (spec §3: the strip holds five, the Reviews section shows four). */
export const REVIEW_PLACEMENTS = [
  { title: 'Scrolling strip', value: 'strip' },
  { title: 'Reviews section', value: 'section' },
  { title: 'Both', value: 'both' },
]

/** Customer review (spec §3): always five stars. */
export const review = defineType({
  name: 'review',
  title: 'Review',
  type: 'document',
  orderings: [orderOrdering],
  fields: [
    requiredString('name', 'Name'),
    requiredString('business', 'Business'),
    defineField({
      name: 'text',
      title: 'Review text',
      type: 'text',
      rows: 4,
      validation: (rule) => rule.required().min(20).max(400),
    }),
    defineField({
      name: 'stars',
      title: 'Stars',
      description: 'Every review on the site has five stars (spec §9).',
      type: 'number',
      initialValue: 5,
      validation: (rule) => rule.required().integer().min(5).max(5),
    }),
    defineField({
      name: 'placement',
      title: 'Where it shows',
      type: 'string',
      options: { list: REVIEW_PLACEMENTS, layout: 'radio' },
      initialValue: 'both',
      validation: (rule) => rule.required(),
    }),
    orderField,
  ],
  preview: { select: { title: 'name', subtitle: 'business' } },
})
