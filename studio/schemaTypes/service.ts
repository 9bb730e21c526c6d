import { defineField, defineType } from 'sanity'
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
    defineField({ name: 'title', title: 'Title', type: 'string', validation: (rule) => rule.required() }),
    defineField({
      name: 'description',
      title: 'Description',
      type: 'text',
      rows: 3,
      validation: (rule) => rule.required(),
    }),
    orderField,
  ],
  preview: { select: { title: 'title', subtitle: 'icon' } },
})
