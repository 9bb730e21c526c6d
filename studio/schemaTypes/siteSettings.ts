import { defineArrayMember, defineField, defineType } from 'sanity'
import { imageWithAlt } from './imageWithAlt'

/** Singleton id: there is exactly one site settings document. */
export const SITE_SETTINGS_ID = 'siteSettings'

const httpsUrl = (name: string, title: string, description: string) =>
  defineField({
    name,
    title,
    description,
    type: 'url',
    validation: (rule) => rule.required().uri({ scheme: ['https'] }),
  })

const intro = (name: string, title: string) =>
  defineField({
    name,
    title,
    description: 'The short paragraph under the section heading.',
    type: 'text',
    rows: 2,
    group: 'sections',
    validation: (rule) => rule.required().max(240),
  })

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
    defineField({
      name: 'brandName',
      title: 'Brand name',
      description: 'Shown in the navigation bar, the footer and page titles.',
      type: 'string',
      group: 'brand',
      validation: (rule) => rule.required().max(40),
    }),
    defineField({
      name: 'description',
      title: 'Site description',
      description: 'For search engines and link previews.',
      type: 'text',
      rows: 2,
      group: 'brand',
      validation: (rule) => rule.required().max(200),
    }),
    defineField({
      name: 'heroEyebrow',
      title: 'Hero eyebrow',
      type: 'string',
      group: 'brand',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'heroHeadline',
      title: 'Hero headline',
      type: 'string',
      group: 'brand',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'heroSubheadline',
      title: 'Hero subheadline',
      type: 'string',
      group: 'brand',
      validation: (rule) => rule.required(),
    }),
    { ...imageWithAlt('heroImage', 'Hero preview image'), group: 'brand' },
    defineField({
      name: 'sellingPoints',
      title: 'Selling points',
      description: 'Short lines under the hero (e.g. "Live in 5 to 7 days").',
      type: 'array',
      of: [defineArrayMember({ type: 'string' })],
      group: 'brand',
      validation: (rule) => rule.required().min(1).max(4),
    }),
    intro('servicesIntro', 'How We Can Help You: intro'),
    intro('audienceIntro', 'IS THIS YOU: intro'),
    intro('calculatorIntro', 'Earnings calculator: intro'),
    intro('caseStudiesIntro', 'Case studies: intro'),
    intro('faqIntro', 'FAQs: intro'),
    intro('reviewsIntro', 'Reviews: intro'),
    intro('contactIntro', 'Get In Touch: intro'),
    intro('consultationIntro', 'Free Consultation page: intro'),
    intro('portfolioIntro', 'Our Portfolio page: intro'),
    defineField({
      name: 'contactEmail',
      title: 'Contact e-mail',
      type: 'email',
      group: 'contact',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'contactPhone',
      title: 'Contact phone',
      description: 'As it should be read, e.g. "+44 20 7946 0321".',
      type: 'string',
      group: 'contact',
      validation: (rule) => rule.required().regex(/^\+?[0-9 ()-]{7,20}$/, { name: 'phone number' }),
    }),
    defineField({
      name: 'bookingWidgetUrl',
      title: 'Booking widget URL',
      description:
        "The booking calendar shown in an iframe on /consultation: the widget's https embed URL (or a path on this site).",
      type: 'url',
      group: 'contact',
      validation: (rule) => rule.required().uri({ scheme: ['https'], allowRelative: true }),
    }),
    defineField({
      name: 'bookingScriptUrl',
      title: 'Booking widget embed script URL',
      description: "Optional: the widget's form embed script, loaded on /consultation.",
      type: 'url',
      group: 'contact',
      validation: (rule) => rule.uri({ scheme: ['https'] }),
    }),
    defineField({
      name: 'contactWebhookUrl',
      title: 'Contact form webhook URL',
      description:
        'Where the contact form POSTs its JSON: an https automation webhook, or a path on this site.',
      type: 'url',
      group: 'contact',
      validation: (rule) => rule.required().uri({ scheme: ['https'], allowRelative: true }),
    }),
    {
      ...httpsUrl('siteUrl', 'Site URL', 'The public address of the site, for links and the sitemap.'),
      group: 'contact',
    },
  ],
  preview: { prepare: () => ({ title: 'Site settings' }) },
})
