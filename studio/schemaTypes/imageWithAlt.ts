import { defineField } from '@sanity/types'

export const IMAGE_TOOL_HELP =
  'Set the hotspot on the part that must stay in view: where a layout crops the image (the cards, the top of a case study), the site keeps that point inside the frame. The crop rectangle is not applied; upload the image as it should be shown.'

const isFraction = (value: unknown) => typeof value === 'number' && value >= 0 && value <= 1

/** Custom rule: a hotspot, when set, lies inside the image (x and y fractions from 0 to 1). */
export function hotspotInside(image: { hotspot?: { x?: unknown; y?: unknown } } | undefined): true | string {
  const hotspot = image?.hotspot
  if (!hotspot || (isFraction(hotspot.x) && isFraction(hotspot.y))) return true
  return 'The hotspot lies outside the image (x and y must be from 0 to 1): set it again in the image tool'
}

/** A required image field with required alt text; the hotspot is honoured where the site crops, the crop is not. */
export function imageWithAlt(name: string, title: string, description: string) {
  return defineField({
    name,
    title,
    description: `${description} ${IMAGE_TOOL_HELP}`,
    type: 'image',
    options: { hotspot: true },
    validation: (rule) => rule.required().assetRequired().custom(hotspotInside),
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
