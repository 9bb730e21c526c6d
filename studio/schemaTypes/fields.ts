import { defineField } from 'sanity'

/** A required one-line string field (e.g. a card's title). */
export const requiredString = (name: string, title: string) =>
  defineField({ name, title, type: 'string', validation: (rule) => rule.required() })

/** A required multi-line plain text field (e.g. a card's description). */
export const requiredText = (name: string, title: string, rows = 3) =>
  defineField({ name, title, type: 'text', rows, validation: (rule) => rule.required() })
