import { defineField } from 'sanity'

/**
 * An image field with required alternative text (accessibility: every content
 * image has an alt text written by an editor).
 * @param name field name, e.g. 'image'
 * @param title label in the Studio
 */
export function imageWithAlt(name: string, title: string) {
  return defineField({
    name,
    title,
    type: 'image',
    options: { hotspot: true },
    validation: (rule) => rule.required().assetRequired(),
    fields: [
      defineField({
        name: 'alt',
        title: 'Alternative text',
        description: 'What the image shows, for people who cannot see it.',
        type: 'string',
        validation: (rule) => rule.required().min(3),
      }),
    ],
  })
}
