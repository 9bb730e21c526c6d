import { defineField, defineType } from '@sanity/types'
import { imageWithAlt } from './imageWithAlt.ts'
import { requiredString, requiredText } from './fields.ts'
import { orderField, orderOrdering } from './orderField.ts'

/** The host name of a URL for a list subtitle ('www.example.co.uk'), or the text as given. */
function hostOf(url: unknown): string {
  if (typeof url !== 'string' || !url) return ''
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

/** Portfolio site (spec §3): shown on /sites with a 'Visit site' link. */
export const portfolioSite = defineType({
  name: 'portfolioSite',
  title: 'Portfolio site',
  type: 'document',
  orderings: [orderOrdering],
  fields: [
    requiredString(
      'title',
      'Title',
      'The name of the client or site, e.g. "Kingsway Barbers". The heading of its card on /sites (Our Portfolio).',
    ),
    requiredText(
      'description',
      'Description',
      'One or two sentences under the card heading: who the client is and what the site does for them. About 100 to 140 characters.',
    ),
    imageWithAlt(
      'image',
      'Screenshot',
      'A screenshot of the site, shown at the top of its card on /sites. Landscape 3:2, at least 1200 × 800 pixels; other shapes are cropped around the hotspot (the centre unless you set one).',
    ),
    defineField({
      name: 'url',
      title: 'Address',
      description:
        'The live site\'s full address, starting with https:// . The card\'s "Visit site" link opens it in a new tab.',
      type: 'url',
      validation: (rule) => rule.required().uri({ scheme: ['https'] }),
    }),
    orderField,
  ],
  preview: {
    select: { title: 'title', url: 'url', media: 'image' },
    prepare: ({ title, url, media }) => ({
      title: title || 'Untitled portfolio site',
      subtitle: hostOf(url) || 'No address yet',
      media,
    }),
  },
})
