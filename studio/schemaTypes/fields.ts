import { defineField } from '@sanity/types'

/** A required one-line string field (e.g. a card's title). */
export const requiredString = (name: string, title: string, description: string) =>
  defineField({ name, title, description, type: 'string', validation: (rule) => rule.required() })

/** A required multi-line plain text field, `rows` high in the Studio. */
export const requiredText = (name: string, title: string, description: string, rows = 3) =>
  defineField({ name, title, description, type: 'text', rows, validation: (rule) => rule.required() })
