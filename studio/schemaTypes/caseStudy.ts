import { defineArrayMember, defineField, defineType } from 'sanity'
import { imageWithAlt } from './imageWithAlt'
import { orderField, orderOrdering } from './orderField'

const portableText = (name: string, title: string) =>
  defineField({
    name,
    title,
    type: 'array',
    of: [defineArrayMember({ type: 'block', styles: [{ title: 'Normal', value: 'normal' }] })],
    validation: (rule) => rule.required().min(1),
  })

/** Case study (spec §3): listed on /case-studies, detailed on /case-studies/{slug}. */
export const caseStudy = defineType({
  name: 'caseStudy',
  title: 'Case study',
  type: 'document',
  orderings: [orderOrdering],
  fields: [
    defineField({
      name: 'title',
      title: 'Title',
      description: 'Shown on cards (home page teaser and /case-studies).',
      type: 'string',
      validation: (rule) => rule.required().max(80),
    }),
    defineField({
      name: 'detailTitle',
      title: 'Detail page title',
      description: 'Heading of the case study page; may differ from the card title (spec §3).',
      type: 'string',
      validation: (rule) => rule.required().max(100),
    }),
    defineField({
      name: 'slug',
      title: 'Slug',
      description: 'The address: /case-studies/{slug}. Lowercase letters, digits and hyphens.',
      type: 'slug',
      options: { source: 'title', maxLength: 64 },
      validation: (rule) =>
        rule
          .required()
          .custom((slug) =>
            !slug?.current || /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug.current)
              ? true
              : 'Use lowercase letters, digits and single hyphens only',
          ),
    }),
    defineField({
      name: 'legacyId',
      title: 'Legacy id',
      description:
        'The id used in old links (e.g. "Osteopath Lancing"); /case-studies/{legacy id} keeps working.',
      type: 'string',
      validation: (rule) => rule.required(),
    }),
    portableText('issue', 'The Issue'),
    portableText('solution', 'Our Solution'),
    portableText('outcome', 'The Outcome'),
    imageWithAlt('image', 'Image'),
    defineField({
      name: 'details',
      title: 'How We Did It',
      description: 'The numbered steps on the detail page: three or five.',
      type: 'array',
      of: [defineArrayMember({ type: 'string' })],
      validation: (rule) =>
        rule
          .required()
          .custom((steps) =>
            !steps || steps.length === 3 || steps.length === 5 ? true : 'Give three or five steps',
          ),
    }),
    orderField,
  ],
  preview: { select: { title: 'title', subtitle: 'slug.current', media: 'image' } },
})
