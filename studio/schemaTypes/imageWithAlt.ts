import { defineField } from 'sanity'

/**
 * An image field with required alternative text (accessibility: every content
 * image has an alt text written by an editor).
 * @param name field name, e.g. 'image'
 * @param title label in the Studio
 * @param description help text for agency staff: what the image is, where it shows, size
 */
export function imageWithAlt(name: string, title: string, description: string) {
  return defineField({
    name,
    title,
    description,
    type: 'image',
    options: { hotspot: true },
    validation: (rule) => rule.required().assetRequired(),
    fields: [
      defineField({
        name: 'alt',
        title: 'Alternative text',
        description:
          'What the image shows, in a short sentence, for people who cannot see it (screen readers read it out). At least 3 characters; do not start with "Image of".',
        type: 'string',
        validation: (rule) => rule.required().min(3),
      }),
    ],
  })
}
