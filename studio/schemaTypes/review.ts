import { defineField, defineType } from '@sanity/types'
import { requiredString } from './fields.ts'
import { orderField, orderOrdering } from './orderField.ts'
import { joinParts } from './listPreview.ts'

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
    requiredString(
      'name',
      'Name',
      'The customer\'s name as they agreed it may be shown, e.g. "Claire Whitfield". Shown under the review text.',
    ),
    requiredString(
      'business',
      'Business',
      'The customer\'s business, e.g. "Shoreline Osteopathy". Shown under their name.',
    ),
    defineField({
      name: 'text',
      title: 'Review text',
      description:
        "The customer's words, without quotation marks (the site adds them). 20 to 400 characters; 120 to 160 fits the cards best.",
      type: 'text',
      rows: 4,
      validation: (rule) => rule.required().min(20).max(400),
    }),
    defineField({
      name: 'stars',
      title: 'Stars',
      description: 'Every review on the site has five stars (spec §9), so this is always 5.',
      type: 'number',
      initialValue: 5,
      validation: (rule) => rule.required().integer().min(5).max(5),
    }),
    defineField({
      name: 'placement',
      title: 'Where it shows',
      description:
        'The scrolling strip under the hero shows the first five reviews placed there; the Reviews section further down shows the first four. "Both" puts it in each.',
      type: 'string',
      options: { list: REVIEW_PLACEMENTS, layout: 'radio' },
      initialValue: 'both',
      validation: (rule) => rule.required(),
    }),
    orderField,
  ],
  preview: {
    select: { title: 'name', business: 'business', stars: 'stars', placement: 'placement' },
    prepare: ({ title, business, stars, placement }) => ({
      title: title || 'Unnamed reviewer',
      subtitle:
        joinParts(
          business,
          typeof stars === 'number' && `${stars} stars`,
          REVIEW_PLACEMENTS.find((option) => option.value === placement)?.title,
        ) || 'No business yet',
    }),
  },
})
