import { defineArrayMember, defineField, defineType } from '@sanity/types'
import { legacyIdIsFree, slugIsFree } from './caseStudyAddress.ts'
import { imageWithAlt } from './imageWithAlt.ts'
import { orderField, orderOrdering } from './orderField.ts'
import { linkAnnotation } from './urls.ts'

const portableText = (name: string, title: string, description: string) =>
  defineField({
    name,
    title,
    description,
    type: 'array',
    of: [
      defineArrayMember({
        type: 'block',
        styles: [{ title: 'Normal', value: 'normal' }],
        marks: { annotations: [linkAnnotation] },
      }),
    ],
    validation: (rule) => rule.required().min(1).custom(hasText),
  })

/** The case study cards show the first 120 characters of The Issue (product §3). */
const CARD_TEXT_LENGTH = 120

/** A portable text block's text ('' for anything else). */
const blockText = (block: { children?: unknown } | undefined): string =>
  Array.isArray(block?.children)
    ? block.children.map((span) => (typeof span?.text === 'string' ? span.text : '')).join('')
    : ''

/** Warning of The Issue: its first paragraph fills the card's 120 characters. */
function opensWithCardText(blocks: unknown): true | string {
  const first = Array.isArray(blocks) ? blocks[0] : undefined
  const length = blockText(first).length
  return (
    !first ||
    length >= CARD_TEXT_LENGTH ||
    `The cards show the first ${CARD_TEXT_LENGTH} characters of the first paragraph, which has ${length}: open with a longer one`
  )
}

/** Custom rule of the case study texts: at least one block holds some words (an empty box reads as broken); empty is left to required(). */
const hasText = (blocks: unknown): true | string =>
  !Array.isArray(blocks) ||
  blocks.length === 0 ||
  blocks.some((block) => blockText(block).trim()) ||
  'Write some text: every block here is empty'

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
      description:
        'The short title on the case study cards (home page teaser and /case-studies). Up to 80 characters.',
      type: 'string',
      validation: (rule) => rule.required().max(80),
    }),
    defineField({
      name: 'detailTitle',
      title: 'Detail page title',
      description:
        "The heading of the case study's own page; may be longer than the card title (spec §3). Up to 100 characters.",
      type: 'string',
      validation: (rule) => rule.required().max(100),
    }),
    defineField({
      name: 'slug',
      title: 'Slug',
      description:
        'The end of the page address: /case-studies/{slug}. Lowercase letters, digits and single hyphens, up to 64 characters; "Generate" makes one from the title. Changing it breaks links already shared.',
      type: 'slug',
      options: { source: 'title', maxLength: 64 },
      validation: (rule) =>
        rule
          .required()
          .custom((slug) =>
            !slug?.current || /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug.current)
              ? true
              : 'Use lowercase letters, digits and single hyphens only',
          )
          .custom(slugIsFree),
    }),
    defineField({
      name: 'legacyId',
      title: 'Legacy id',
      description:
        'The id used in old links (e.g. "Osteopath Lancing"); /case-studies/{legacy id} keeps working. For a new case study, repeat the slug. No other case study may use it as its slug or legacy id.',
      type: 'string',
      validation: (rule) => rule.required().custom(legacyIdIsFree),
    }),
    {
      ...portableText(
        'issue',
        'The Issue',
        'The problem the client had: the first box on the case study page. Its first 120 characters also appear on the case study cards, so open with the point.',
      ),
      validation: (rule) => [
        rule.required().min(1).custom(hasText),
        rule.custom(opensWithCardText).warning(),
      ],
    },
    portableText('solution', 'Our Solution', 'What we built: the second box on the case study page.'),
    portableText(
      'outcome',
      'The Outcome',
      'What changed for the client, with numbers where you have them: the third box on the case study page.',
    ),
    imageWithAlt(
      'image',
      'Image',
      'Shown on the case study cards and at the top of the case study page. Landscape 3:2, at least 1200 × 800 pixels; other shapes are cropped around the hotspot (the centre unless you set one).',
    ),
    defineField({
      name: 'details',
      title: 'How We Did It',
      description:
        'The numbered steps under "How We Did It" on the case study page: exactly three or five short steps, one sentence each.',
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
  preview: {
    select: { title: 'title', slug: 'slug.current', media: 'image' },
    prepare: ({ title, slug, media }) => ({
      title: title || 'Untitled case study',
      subtitle: slug ? `/case-studies/${slug}` : 'No slug yet',
      media,
    }),
  },
})
