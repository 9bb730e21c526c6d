import { defineField, defineType } from 'sanity'
import { requiredString, requiredText } from './fields'
import { orderField, orderOrdering } from './orderField'

/** Icons the site can draw for a service card; the site maps each to an inline SVG. */
export const SERVICE_ICONS = [
  { title: 'Website', value: 'website' },
  { title: 'Automation', value: 'automation' },
  { title: 'Integrations', value: 'integrations' },
  { title: 'CRM', value: 'crm' },
  { title: 'Chatbot', value: 'chatbot' },
  { title: 'Voice agent', value: 'voice' },
]

/** Service card (spec §3): icon, title, description. */
export const service = defineType({
  name: 'service',
  title: 'Service',
  type: 'document',
  orderings: [orderOrdering],
  fields: [
    defineField({
      name: 'icon',
      title: 'Icon',
      type: 'string',
      options: { list: SERVICE_ICONS },
      validation: (rule) => rule.required(),
    }),
    requiredString('title', 'Title'),
    requiredText('description', 'Description'),
    orderField,
  ],
  preview: { select: { title: 'title', subtitle: 'icon' } },
})
