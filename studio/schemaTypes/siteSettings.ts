import { defineArrayMember, defineField, defineType, type FieldDefinition } from '@sanity/types'
import { imageWithAlt } from './imageWithAlt.ts'
import { httpsUrlOrSitePathRule } from './urls.ts'

/** Singleton id: there is exactly one site settings document. */
export const SITE_SETTINGS_ID = 'siteSettings'

/** `fields` on the Studio tab `group`. */
const inGroup = (group: string, fields: FieldDefinition[]) => fields.map((field) => ({ ...field, group }))

/** The sections' intro paragraphs: field name, title, and the heading and page each sits under. */
const INTROS = [
  ['servicesIntro', 'How We Can Help You: intro', 'the "How We Can Help You" heading on the home page'],
  ['audienceIntro', 'IS THIS YOU: intro', 'the "IS THIS YOU" heading on the home page'],
  ['calculatorIntro', 'Earnings calculator: intro', 'the earnings calculator heading on the home page'],
  [
    'caseStudiesIntro',
    'Case studies: intro',
    'the case studies heading on the home page and on /case-studies',
  ],
  ['faqIntro', 'FAQs: intro', 'the "FAQs" heading on the home page'],
  ['reviewsIntro', 'Reviews: intro', 'the "Reviews" heading on the home page'],
  ['contactIntro', 'Get In Touch: intro', 'the "Get In Touch" heading of the contact form on the home page'],
  ['consultationIntro', 'Free Consultation page: intro', 'the "Free Consultation" heading on /consultation'],
  ['portfolioIntro', 'Our Portfolio page: intro', 'the "Our Portfolio" heading on /sites'],
] as const

/** Site settings (singleton): brand, hero texts, contact details and integrations. */
export const siteSettings = defineType({
  name: 'siteSettings',
  title: 'Site settings',
  type: 'document',
  groups: [
    { name: 'brand', title: 'Brand and hero', default: true },
    { name: 'sections', title: 'Section intros' },
    { name: 'contact', title: 'Contact and integrations' },
  ],
  fields: [
    ...inGroup('brand', [
      defineField({
        name: 'brandName',
        title: 'Brand name',
        description:
          'The agency name: shown in the navigation bar, the footer and every page title in the browser tab. Up to 40 characters.',
        type: 'string',
        validation: (rule) => rule.required().max(40),
      }),
      defineField({
        name: 'description',
        title: 'Site description',
        description:
          'One or two sentences about the agency: shown in the footer, and by search engines and link previews (e.g. when the site is shared on social media). Up to 200 characters.',
        type: 'text',
        rows: 2,
        validation: (rule) => rule.required().max(200),
      }),
      defineField({
        name: 'heroEyebrow',
        title: 'Hero eyebrow',
        description:
          'The small line above the big headline at the top of the home page, e.g. "EMPOWERING LOCAL BUSINESS". A few words.',
        type: 'string',
        validation: (rule) => rule.required(),
      }),
      defineField({
        name: 'heroHeadline',
        title: 'Hero headline',
        description:
          'The big headline at the top of the home page; also part of the home page title in the browser tab and in search results. Keep it under about 40 characters.',
        type: 'string',
        validation: (rule) => rule.required(),
      }),
      defineField({
        name: 'heroSubheadline',
        title: 'Hero subheadline',
        description: 'The line under the big headline at the top of the home page. One short line.',
        type: 'string',
        validation: (rule) => rule.required(),
      }),
      imageWithAlt(
        'heroImage',
        'Hero preview image',
        'The picture beside the headline at the top of the home page. Landscape 3:2, at least 1200 × 800 pixels.',
      ),
      defineField({
        name: 'sellingPoints',
        title: 'Selling points',
        description:
          'Short lines with a tick under the headline at the top of the home page (e.g. "Live in 5 to 7 days"). One to four lines, a few words each (up to 60 characters).',
        type: 'array',
        of: [defineArrayMember({ type: 'string', validation: (rule) => rule.required().max(60) })],
        validation: (rule) => rule.required().min(1).max(4),
      }),
    ]),
    ...inGroup(
      'sections',
      INTROS.map(([name, title, where]) =>
        defineField({
          name,
          title,
          description: `The short paragraph under ${where}. One or two sentences, up to 240 characters.`,
          type: 'text',
          rows: 2,
          validation: (rule) => rule.required().max(240),
        }),
      ),
    ),
    ...inGroup('contact', [
      defineField({
        name: 'contactEmail',
        title: 'Contact e-mail',
        description:
          'The address visitors see in the footer and beside the contact form, e.g. hello@example.co.uk. It is shown publicly.',
        type: 'email',
        validation: (rule) => rule.required(),
      }),
      defineField({
        name: 'contactPhone',
        title: 'Contact phone',
        description:
          'The phone number shown in the footer and beside the contact form, written as it should be read, e.g. "+44 20 7946 0321". Digits, spaces, +, brackets and hyphens; 7 to 20 characters.',
        type: 'string',
        validation: (rule) => rule.required().regex(/^\+?[0-9 ()-]{7,20}$/, { name: 'phone number' }),
      }),
      defineField({
        name: 'bookingWidgetUrl',
        title: 'Booking widget URL',
        description:
          "The booking calendar shown on /consultation: the booking widget's https embed address from your booking provider (or a path on this site). Changing it also changes the site's security policy on the next build.",
        type: 'url',
        validation: httpsUrlOrSitePathRule,
      }),
      defineField({
        name: 'bookingScriptUrl',
        title: 'Booking widget embed script URL',
        description:
          "Optional: the https address of the booking widget's embed script, if your booking provider gives one; loaded on /consultation only. Leave empty if unsure.",
        type: 'url',
        validation: (rule) => rule.uri({ scheme: ['https'] }),
      }),
      defineField({
        name: 'contactWebhookUrl',
        title: 'Contact form webhook URL',
        description:
          'Where the "Get In Touch" form sends each message: the https address of your automation webhook (e.g. from Make or Zapier), or a path on this site. Test the form after changing it.',
        type: 'url',
        validation: httpsUrlOrSitePathRule,
      }),
      defineField({
        name: 'siteUrl',
        title: 'Site URL',
        description:
          "The site's public address, e.g. https://www.example.co.uk: used in the sitemap, in link previews and for search engines. Must start with https://.",
        type: 'url',
        validation: (rule) => rule.required().uri({ scheme: ['https'] }),
      }),
    ]),
  ],
  preview: {
    select: { brandName: 'brandName', siteUrl: 'siteUrl', media: 'heroImage' },
    prepare: ({ brandName, siteUrl, media }) => ({
      title: 'Site settings',
      subtitle: [brandName, siteUrl].filter(Boolean).join(' · ') || 'Brand, hero texts and contact details',
      media,
    }),
  },
})
