import { defineField } from '@sanity/types'

/**
 * A required one-line string field (e.g. a card's title).
 * @param description help text for agency staff: what it is, where it shows, limits
 */
export const requiredString = (name: string, title: string, description: string) =>
  defineField({ name, title, description, type: 'string', validation: (rule) => rule.required() })

/**
 * A required multi-line plain text field (e.g. a card's description).
 * @param description help text for agency staff: what it is, where it shows, limits
 * @param rows height of the input box in the Studio
 */
export const requiredText = (name: string, title: string, description: string, rows = 3) =>
  defineField({ name, title, description, type: 'text', rows, validation: (rule) => rule.required() })
