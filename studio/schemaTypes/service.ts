import { defineField, defineType } from '@sanity/types'
import { requiredString, requiredText } from './fields.ts'
import { orderField, orderOrdering } from './orderField.ts'
import { excerpt, joinParts } from './listPreview.ts'

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
      description:
        'The small picture at the top of the card. Pick from the list: the site draws each one itself, so new icons need a developer.',
      type: 'string',
      options: { list: SERVICE_ICONS },
      validation: (rule) => rule.required(),
    }),
    requiredString(
      'title',
      'Title',
      'The service name, e.g. "AI Chatbots". The heading of one card in the "How We Can Help You" section of the home page.',
    ),
    requiredText(
      'description',
      'Description',
      'One or two sentences under the card heading: what the service does for a business. About 110 to 160 characters fits the card.',
    ),
    orderField,
  ],
  preview: {
    select: { title: 'title', icon: 'icon', description: 'description' },
    prepare: ({ title, icon, description }) => {
      const iconTitle = SERVICE_ICONS.find((option) => option.value === icon)?.title
      return {
        title: title || 'Untitled service',
        subtitle: joinParts(iconTitle && `${iconTitle} icon`, excerpt(description, 50)) || 'No icon yet',
      }
    },
  },
})
