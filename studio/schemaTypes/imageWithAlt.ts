import { defineField } from '@sanity/types'

/** What the Studio's image tool does on this site (hotspot yes, crop no), for editors. */
export const IMAGE_TOOL_HELP =
  'Set the hotspot on the part that must stay in view: where a layout crops the image (the cards, the top of a case study), the site keeps that point inside the frame. The crop rectangle is not applied; upload the image as it should be shown.'

const isFraction = (value: unknown) => typeof value === 'number' && value >= 0 && value <= 1

/**
 * Custom rule: a hotspot, when set, lies inside the image (x and y are fractions of its
 * width and height, as the Studio's image tool writes them); the site crops around it.
 */
export function hotspotInside(image: { hotspot?: { x?: unknown; y?: unknown } } | undefined): true | string {
  const hotspot = image?.hotspot
  if (!hotspot || (isFraction(hotspot.x) && isFraction(hotspot.y))) return true
  return 'The hotspot lies outside the image (x and y must be from 0 to 1): set it again in the image tool'
}

/**
 * An image field with required alternative text (accessibility: every content
 * image has an alt text written by an editor). The hotspot is honoured where the
 * site crops the image (lib/content `imageFocus`); the crop rectangle is not.
 * @param name field name, e.g. 'image'
 * @param title label in the Studio
 * @param description help text for agency staff: what the image is, where it shows, size
 */
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
