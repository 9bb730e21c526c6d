import { defineType } from 'sanity'
import { requiredString, requiredText } from './fields'
import { orderField, orderOrdering } from './orderField'

/** Audience card in 'IS THIS YOU' (spec §2): title and description. */
export const audienceCard = defineType({
  name: 'audienceCard',
  title: 'Audience card',
  type: 'document',
  orderings: [orderOrdering],
  fields: [requiredString('title', 'Title'), requiredText('description', 'Description'), orderField],
})
