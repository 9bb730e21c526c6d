#!/usr/bin/env node
/**
 * Builds seed/dataset.ndjson (Sanity's NDJSON import format) from the copy
 * below and the artwork in seed/images/: SVG drawings, and one PNG screenshot
 * (site-cafe.png, drawn once from an SVG by sharp) so that the default content
 * also has a raster image, which the build serves as resized WebP copies.
 *
 * Asset _ids depend on each file's SHA-1, so re-run this after editing any image:
 *   node studio/seed/generate.mjs
 *
 * The script checks its own output (JSON per line, references, _keys, the
 * schema's required fields and limits) and exits non-zero on any problem.
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync, existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'

const here = dirname(fileURLToPath(import.meta.url))
const imagesDir = join(here, 'images')
const outFile = join(here, 'dataset.ndjson')

// ---------------------------------------------------------------------------
// Assets
// ---------------------------------------------------------------------------

const IMAGE_FILES = [
  'hero-preview.svg',
  'case-40-hours.svg',
  'case-osteopath-lancing.svg',
  'case-um-al-hayaa.svg',
  'site-barbershop.svg',
  'site-plumber.svg',
  'site-osteopath.svg',
  'site-coach.svg',
  'site-boutique.svg',
  'site-cafe.png',
]

const problems = []
const assets = new Map() // file name -> asset document

for (const file of IMAGE_FILES) {
  const path = join(imagesDir, file)
  if (!existsSync(path)) {
    problems.push(`missing image file ${file}`)
    continue
  }
  const bytes = readFileSync(path)
  const extension = file.split('.').pop()
  const mimeType = { svg: 'image/svg+xml', png: 'image/png' }[extension]
  let width, height
  if (extension === 'svg') {
    const text = bytes.toString('utf8')
    const root = text.match(/<svg\b[^>]*>/)?.[0] ?? ''
    width = Number(root.match(/\swidth="(\d+)"/)?.[1])
    height = Number(root.match(/\sheight="(\d+)"/)?.[1])
    if (!width || !height) problems.push(`${file}: the <svg> element needs width and height`)
    if (!/\sviewBox="/.test(root)) problems.push(`${file}: the <svg> element needs a viewBox`)
    if (bytes.length > 12 * 1024) problems.push(`${file}: ${bytes.length} bytes, over 12 KB`)
    if (/(?:xlink:)?href="(?!#)/.test(text)) problems.push(`${file}: external href`)
    if (/@import|url\((?!#)/.test(text)) problems.push(`${file}: external url()`)
  } else if (mimeType) {
    ;({ width, height } = await sharp(bytes).metadata())
    if (bytes.length > 200 * 1024) problems.push(`${file}: ${bytes.length} bytes, over 200 KB`)
  } else problems.push(`${file}: only .svg and .png images`)

  const sha1 = createHash('sha1').update(bytes).digest('hex')
  const dims = `${width}x${height}`
  assets.set(file, {
    _id: `image-${sha1}-${dims}-${extension}`,
    _type: 'sanity.imageAsset',
    assetId: sha1,
    sha1hash: sha1,
    extension,
    mimeType,
    originalFilename: file,
    size: bytes.length,
    path: `images/local0/production/${sha1}-${dims}.${extension}`,
    url: `https://cdn.sanity.io/images/local0/production/${sha1}-${dims}.${extension}`,
    metadata: {
      _type: 'sanity.imageMetadata',
      dimensions: {
        _type: 'sanity.imageDimensions',
        width,
        height,
        aspectRatio: Math.round((width / height) * 1e6) / 1e6,
      },
    },
  })
}

/** An image field value pointing at one of the SVG assets. */
function image(file, alt) {
  const asset = assets.get(file)
  if (!asset) throw new Error(`no asset for ${file}`)
  return { _type: 'image', alt, asset: { _type: 'reference', _ref: asset._id } }
}

/** Portable text: one block per paragraph, keys derived from a prefix. */
function blocks(prefix, ...paragraphs) {
  return paragraphs.map((text, i) => ({
    _type: 'block',
    _key: `${prefix}${i + 1}`,
    style: 'normal',
    markDefs: [],
    children: [{ _type: 'span', _key: `${prefix}${i + 1}s`, text, marks: [] }],
  }))
}

/** Adds `order` 0, 1, 2... in list order. */
const ordered = (docs) => docs.map((doc, order) => ({ ...doc, order }))

// ---------------------------------------------------------------------------
// Site settings
// ---------------------------------------------------------------------------

const siteSettings = {
  _id: 'siteSettings',
  _type: 'siteSettings',
  brandName: 'Elevate Local',
  description:
    'Fast websites, AI assistants and automations for UK local businesses. Live in 5 to 7 days, with changes included in your monthly plan.',
  heroEyebrow: 'EMPOWERING LOCAL BUSINESS',
  heroHeadline: 'SITES. SOLUTIONS. MADE SIMPLE.',
  heroSubheadline: 'AI-DRIVEN AUTOMATION AND HIGH PERFORMING SITES',
  heroImage: image(
    'hero-preview.svg',
    "Preview of a local electrician's website we built, with a booking button and an AI assistant chat confirming a customer's appointment",
  ),
  sellingPoints: [
    'Live in 5 to 7 days',
    'Upfront fee plus a monthly retainer that covers software',
    'Changes to your site or automations are free',
  ],
  servicesIntro:
    'Everything a local business needs to look professional online and spend less time on admin. Start with one service or combine them.',
  audienceIntro:
    'If your evenings go on admin, calls get missed while you work, or your website is letting you down, we built this for you.',
  calculatorIntro:
    'How many hours a week do you lose to admin, and what is an hour of your time worth? Put in your numbers to see what that time could earn you each month.',
  caseStudiesIntro: 'Real problems, the systems we built to fix them and what changed afterwards.',
  faqIntro: 'Straight answers to the questions we hear most. Anything else, just ask.',
  reviewsIntro: 'Local business owners on what changed once the admin started running itself.',
  contactIntro:
    "Tell us a little about your business and what you'd like to automate. We'll reply within one working day.",
  consultationIntro:
    "Pick a time for a free 30-minute call. We'll look at where you're losing time and leads, and tell you honestly what would help.",
  portfolioIntro:
    'A selection of sites we have built for local businesses: fast, mobile-first and designed to turn visitors into customers.',
  contactEmail: 'hello@elevatelocal.co.uk',
  contactPhone: '+44 20 7946 0321',
  // The embedded default points at a same-origin stand-in (public/booking/), so the
  // site runs with no network; editors set their provider's embed URL in the Studio.
  bookingWidgetUrl: '/booking/',
  contactWebhookUrl: '/api/contact',
  siteUrl: 'https://www.elevatelocal.co.uk',
}

// ---------------------------------------------------------------------------
// Services, audience cards, growth items
// ---------------------------------------------------------------------------

const services = ordered([
  {
    _id: 'service-ai-websites',
    _type: 'service',
    icon: 'website',
    title: 'AI-Powered Websites',
    description:
      'Fast, mobile-first websites that explain what you do, show up in local searches and turn visitors into enquiries. Live in 5 to 7 days.',
  },
  {
    _id: 'service-ai-automations',
    _type: 'service',
    icon: 'automation',
    title: 'AI-Powered Automations',
    description:
      'Quotes, follow-ups, invoices and reminders that run themselves in the background, so the admin gets done without you.',
  },
  {
    _id: 'service-integrations',
    _type: 'service',
    icon: 'integrations',
    title: 'Seamless Integrations',
    description:
      'Your calendar, payments, inbox and accounts talking to each other, so nothing gets typed in twice or lost between apps.',
  },
  {
    _id: 'service-crm',
    _type: 'service',
    icon: 'crm',
    title: 'CRM',
    description:
      'Every lead, customer and conversation in one place, with a simple pipeline that shows exactly who to call next.',
  },
  {
    _id: 'service-ai-chatbots',
    _type: 'service',
    icon: 'chatbot',
    title: 'AI Chatbots',
    description:
      'An assistant on your website and social channels that answers questions, qualifies leads and books appointments around the clock.',
  },
  {
    _id: 'service-ai-voice-agents',
    _type: 'service',
    icon: 'voice',
    title: 'AI Voice Agents',
    description:
      "A natural-sounding voice assistant that answers calls, books jobs and takes messages. Missed Call Text-Back sends an instant SMS to anyone you couldn't answer.",
  },
])

const audienceCards = ordered([
  {
    _id: 'audience-business-owners',
    _type: 'audienceCard',
    title: 'Business Owners',
    description:
      "You're doing the work and the admin. We automate the admin so your hours go where they earn.",
  },
  {
    _id: 'audience-agencies',
    _type: 'audienceCard',
    title: 'Agencies',
    description:
      'Add AI automation and fast websites to your offer without hiring. We deliver quietly, under your brand.',
  },
  {
    _id: 'audience-tradesmen',
    _type: 'audienceCard',
    title: 'Tradesmen',
    description:
      "You can't answer the phone up a ladder. We make sure every call, quote and job still gets followed up.",
  },
  {
    _id: 'audience-coaches',
    _type: 'audienceCard',
    title: 'Coaches',
    description:
      'Bookings, reminders, payments and onboarding handled automatically, so your energy goes into the sessions.',
  },
  {
    _id: 'audience-creators',
    _type: 'audienceCard',
    title: 'Creators',
    description:
      'Turn hours of editing, posting and replying into workflows that run while you get on with creating.',
  },
  {
    _id: 'audience-ecommerce-stores',
    _type: 'audienceCard',
    title: 'E-commerce Stores',
    description:
      'A fast shop, instant answers to customer questions and friendly reminders that bring abandoned baskets back.',
  },
])

const growthItems = ordered([
  {
    _id: 'growth-automate-admin',
    _type: 'growthItem',
    title: 'Automate the admin',
    content:
      "Quotes, invoices, reminders and follow-ups run on their own. The hours you used to spend at the laptop every evening come back to you. That's time for paid work, or for going home on time.",
  },
  {
    _id: 'growth-never-miss-a-lead',
    _type: 'growthItem',
    title: 'Never miss a lead',
    content:
      "Missed Call Text-Back, an AI assistant and instant replies mean every enquiry gets an answer within seconds, day or night. Customers stop going to whoever picks up first, because that's now you.",
  },
  {
    _id: 'growth-site-that-sells',
    _type: 'growthItem',
    title: 'A site that sells while you sleep',
    content:
      'Your website explains what you do, answers questions and takes bookings at 2am as well as 2pm. It loads fast, is easy to find locally and is built to turn visitors into customers.',
  },
])

// ---------------------------------------------------------------------------
// Case studies
// ---------------------------------------------------------------------------

const caseStudies = ordered([
  {
    _id: 'caseStudy-40-hours',
    _type: 'caseStudy',
    title: 'How I Saved 40 Hours',
    detailTitle: 'How I Saved 40 Hours of Video Editing With AI Automation',
    slug: { _type: 'slug', current: 'how-i-saved-40-hours' },
    legacyId: 'How-I-Saved-40-Hours',
    issue: blocks(
      'issue',
      'I had 59 recorded videos, each around 40 minutes long, waiting to be trimmed, captioned, titled and cut into short clips. Editing by hand took me about 40 minutes per video, and the backlog kept growing faster than I could clear it.',
      'That was close to 40 hours of repetitive work before a single video could go out.',
    ),
    solution: blocks(
      'solution',
      'I built an automation pipeline. Every new recording dropped into a shared folder is transcribed, silences and retakes are cut, captions are added, and AI drafts the title, description, chapters and three short clips.',
      'All I do now is a quick check before anything is published.',
    ),
    outcome: blocks(
      'outcome',
      'All 59 videos went through the pipeline, saving roughly 40 hours of manual editing. Each new video now takes a few minutes of checking instead of 40 minutes in an editor, and the same system runs for every recording since.',
    ),
    image: image(
      'case-40-hours.svg',
      'A film strip of video frames beside a clock, with an automated flow from new upload to AI edit, review and publish',
    ),
    details: [
      'Mapped the manual editing routine step by step and timed it: about 40 minutes per video.',
      'Set up a watched cloud folder so each new recording starts the workflow automatically.',
      'Used AI transcription to cut silences and retakes and to generate accurate captions.',
      'Had AI draft titles, descriptions, chapters and short clips, ready for a quick human check.',
      'Ran all 59 videos through the pipeline and kept it running for every new upload.',
    ],
  },
  {
    _id: 'caseStudy-osteopath-lancing',
    _type: 'caseStudy',
    title: 'Osteopath in Lancing: Fully Booked on Autopilot',
    detailTitle: 'How an Osteopath in Lancing Stopped Losing Patients to Voicemail',
    slug: { _type: 'slug', current: 'osteopath-lancing' },
    legacyId: 'Osteopath Lancing',
    issue: blocks(
      'issue',
      "A one-practitioner osteopathy clinic in Lancing was losing new patients to voicemail. Calls came in during treatments, bookings lived in a paper diary, and last-minute no-shows left gaps the clinic couldn't fill.",
      'Evenings were spent returning calls, and some callers had already booked elsewhere.',
    ),
    solution: blocks(
      'solution',
      "We built a fast, mobile-first website with online booking tied to the practitioner's calendar, and switched on Missed Call Text-Back so every unanswered call gets an instant SMS with a booking link.",
      'Automatic reminders go out 48 hours and 2 hours before each appointment.',
    ),
    outcome: blocks(
      'outcome',
      'Within the first month, missed calls were turning into bookings instead of lost patients. No-shows dropped from around six a month to one or two, and the diary now fills itself without evenings spent on the phone.',
    ),
    image: image(
      'case-osteopath-lancing.svg',
      "A clinic's weekly booking calendar with 34 of 35 slots booked, beside a curved spine motif and a new-booking notification",
    ),
    details: [
      'Logged every missed call for two weeks to see when and why patients were slipping away.',
      'Built a five-page website with treatments, prices and online booking on every page.',
      "Connected booking to the practitioner's calendar, with buffers between sessions.",
      'Switched on Missed Call Text-Back and SMS reminders 48 hours and 2 hours before each visit.',
      'Added an automatic review request after each first appointment.',
    ],
  },
  {
    _id: 'caseStudy-um-al-hayaa',
    _type: 'caseStudy',
    title: 'Um Al Hayaa: A Store That Answers Every Customer',
    detailTitle: 'Um Al Hayaa: An E-commerce Store That Answers Every Customer',
    slug: { _type: 'slug', current: 'um-al-hayaa' },
    legacyId: 'Um Al Hayaa',
    issue: blocks(
      'issue',
      'Um Al Hayaa sells modest fashion online, and the same questions about sizing, fabric, delivery and returns arrived day and night on Instagram, WhatsApp and e-mail. Replies could take a day, and shoppers rarely asked twice.',
    ),
    solution: blocks(
      'solution',
      'We rebuilt the shop on a fast e-commerce platform with a size guide on every product, then trained an AI chatbot on the catalogue and the delivery and returns policies.',
      'It answers instantly on the site and Instagram, checks stock, and hands anything unusual to the owner with the full conversation attached.',
    ),
    outcome: blocks(
      'outcome',
      "Customers now get answers in seconds at any hour, most routine questions never reach the owner's inbox, and abandoned baskets get a friendly reminder. Her evenings go on new collections instead of repeating the returns policy.",
    ),
    image: image(
      'case-um-al-hayaa.svg',
      'Modest-fashion product cards, a shopping bag and a store assistant chat answering a sizing question',
    ),
    details: [
      'Moved the catalogue to a fast, mobile-first store with a size guide on every product.',
      'Trained an AI chatbot on products, stock, delivery and returns, live on the site and Instagram.',
      'Set up abandoned-basket reminders and a hand-off to the owner for anything unusual.',
    ],
  },
])

// ---------------------------------------------------------------------------
// Reviews (placement: 'both' = strip and Reviews section; 'strip' = strip only)
// ---------------------------------------------------------------------------

const reviews = ordered([
  {
    _id: 'review-osteopath',
    _type: 'review',
    name: 'Claire Whitfield',
    business: 'Shoreline Osteopathy',
    text: 'My diary used to live on a notepad and in my head. Now patients book online, get reminders and hardly ever miss appointments. I wish I had done it years ago.',
    stars: 5,
    placement: 'both',
  },
  {
    _id: 'review-clothing-brand',
    _type: 'review',
    name: 'Amira Hassan',
    business: 'Um Al Hayaa',
    text: "The chatbot answers sizing and delivery questions at midnight so I don't have to. Customers get a reply straight away and my inbox is finally quiet.",
    stars: 5,
    placement: 'both',
  },
  {
    _id: 'review-barbershop-kingsway',
    _type: 'review',
    name: 'Danny Okafor',
    business: 'Kingsway Barbers',
    text: 'Clients book straight from Instagram and the reminders have all but wiped out no-shows. The new site looks as sharp as the cuts.',
    stars: 5,
    placement: 'both',
  },
  {
    _id: 'review-barbershop-sharp-room',
    _type: 'review',
    name: 'Marco Bianchi',
    business: 'The Sharp Room',
    text: 'Missed calls used to mean missed haircuts. Now every caller gets a text with a booking link within seconds. Simple, and it works.',
    stars: 5,
    placement: 'strip',
  },
  {
    _id: 'review-financial-advisor',
    _type: 'review',
    name: 'Priya Shah',
    business: 'Shah Wealth Planning',
    text: 'Quick, professional and clear about costs from the start. Enquiries now land in our CRM with a follow-up sequence, so nothing slips through.',
    stars: 5,
    placement: 'both',
  },
])

// ---------------------------------------------------------------------------
// FAQs
// ---------------------------------------------------------------------------

const faqs = ordered([
  {
    _id: 'faq-services',
    _type: 'faq',
    question: 'What services do you offer?',
    answer:
      'AI-powered websites, automations, integrations, CRM set-up, AI chatbots and AI voice agents with Missed Call Text-Back. Most clients start with one and add more as they grow.',
  },
  {
    _id: 'faq-implementation-time',
    _type: 'faq',
    question: 'How long does implementation take?',
    answer:
      'Most projects take 5 to 7 days from kick-off to going live. We agree the scope on a free consultation, then keep you updated throughout.',
  },
  {
    _id: 'faq-pricing',
    _type: 'faq',
    question: 'What are your pricing plans?',
    answer:
      'An upfront fee for the build, plus a monthly retainer that covers hosting and software costs, so there are no surprise bills. Websites start from £495 upfront and £79 a month, and every project is quoted before any work begins.',
  },
  {
    _id: 'faq-changes',
    _type: 'faq',
    question: 'What if I need changes later?',
    answer:
      'Changes to your site or automations are free under the retainer. Send us a message and we will make them, usually within two working days.',
  },
])

// ---------------------------------------------------------------------------
// Portfolio
// ---------------------------------------------------------------------------

const portfolioSites = ordered([
  {
    _id: 'portfolio-kingsway-barbers',
    _type: 'portfolioSite',
    title: 'Kingsway Barbers',
    description:
      'A bold, dark site for a Brighton barbershop, with online booking and a price list clients can read in seconds.',
    image: image(
      'site-barbershop.svg',
      'Kingsway Barbers home page: dark hero with barber-pole stripes, a Book a chair button and a price list',
    ),
    url: 'https://www.kingswaybarbers.co.uk',
  },
  {
    _id: 'portfolio-harbour-plumbing',
    _type: 'portfolioSite',
    title: 'Harbour Plumbing & Heating',
    description:
      'Emergency call-outs and a free-quote form front and centre for a Portsmouth plumber, with Gas Safe credentials where customers look for them.',
    image: image(
      'site-plumber.svg',
      'Harbour Plumbing & Heating home page: navy hero headline, a free quote form and four service tiles',
    ),
    url: 'https://www.harbourplumbing.co.uk',
  },
  {
    _id: 'portfolio-shoreline-osteopathy',
    _type: 'portfolioSite',
    title: 'Shoreline Osteopathy',
    description:
      'A calm clinic site in Lancing with treatments, prices and a booking bar showing the next free appointment.',
    image: image(
      'site-osteopath.svg',
      'Shoreline Osteopathy home page: sage-green sea view illustration with an online booking bar',
    ),
    url: 'https://www.shorelineosteopathy.co.uk',
  },
  {
    _id: 'portfolio-ruth-adeyemi-coaching',
    _type: 'portfolioSite',
    title: 'Ruth Adeyemi Coaching',
    description:
      'A warm personal brand for a Manchester leadership coach, with programmes, client stories and bookable discovery calls.',
    image: image(
      'site-coach.svg',
      'Ruth Adeyemi Coaching home page: terracotta portrait circle, headline and a list of coaching programmes',
    ),
    url: 'https://www.ruthadeyemicoaching.co.uk',
  },
  {
    _id: 'portfolio-linen-and-loom',
    _type: 'portfolioSite',
    title: 'Linen & Loom',
    description:
      'An image-led online shop for a Bath clothing boutique, with quick browsing and clear delivery and returns information.',
    image: image(
      'site-boutique.svg',
      'Linen & Loom shop page: centred wordmark, category links and a grid of four clothing products with prices',
    ),
    url: 'https://www.linenandloom.co.uk',
  },
  {
    _id: 'portfolio-the-corner-table',
    _type: 'portfolioSite',
    title: 'The Corner Table',
    description:
      'A neighbourhood café in Leeds with its menu, opening hours and table bookings on one fast page.',
    image: image(
      'site-cafe.png',
      "The Corner Table home page: green hero with a latte illustration, today's menu, opening hours and a map",
    ),
    url: 'https://www.thecornertable.co.uk',
  },
])

// ---------------------------------------------------------------------------
// Write
// ---------------------------------------------------------------------------

// Fixed system timestamps, as a dataset export carries them: the sitemap's <lastmod> comes
// from `_updatedAt`, and a fixed value keeps the file (and the sitemap) the same on every run.
// Change a document's date here when you change its copy.
const CREATED_AT = '2026-11-02T09:00:00Z'
const UPDATED_AT = {
  siteSettings: '2026-11-05T10:00:00Z',
  'caseStudy-40-hours': '2026-11-12T14:30:00Z',
  'caseStudy-um-al-hayaa': '2026-11-18T16:45:00Z',
}
const DEFAULT_UPDATED_AT = '2026-11-09T09:00:00Z'
const stamped = (doc) => ({
  ...doc,
  _createdAt: CREATED_AT,
  _updatedAt: UPDATED_AT[doc._id] ?? DEFAULT_UPDATED_AT,
})

const documents = [
  ...assets.values(),
  siteSettings,
  ...services,
  ...audienceCards,
  ...growthItems,
  ...caseStudies,
  ...reviews,
  ...faqs,
  ...portfolioSites,
].map(stamped)

// ---------------------------------------------------------------------------
// Checks (mirror studio/schemaTypes/*.ts)
// ---------------------------------------------------------------------------

const isHttps = (v) => {
  try {
    return new URL(v).protocol === 'https:'
  } catch {
    return false
  }
}
const need = (doc, field, test, why) => {
  if (!test(doc[field])) problems.push(`${doc._id}.${field}: ${why}`)
}
const str = (v) => typeof v === 'string' && v.trim().length > 0
const maxLen = (n) => (v) => str(v) && v.length <= n
const isOrder = (v) => Number.isInteger(v) && v >= 0
const textOf = (block) => block.children.map((c) => c.text).join('')
const portableText = (v) => Array.isArray(v) && v.length >= 1

/** Every object in every array has a _key unique within that array. */
function checkKeys(value, where) {
  if (Array.isArray(value)) {
    const seen = new Set()
    value.forEach((item, i) => {
      if (item && typeof item === 'object') {
        if (!str(item._key)) problems.push(`${where}[${i}]: object in an array without _key`)
        else if (seen.has(item._key)) problems.push(`${where}[${i}]: duplicate _key ${item._key}`)
        else seen.add(item._key)
      }
      checkKeys(item, `${where}[${i}]`)
    })
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) checkKeys(v, `${where}.${k}`)
  }
}

function checkImage(doc, field) {
  const img = doc[field]
  if (img?._type !== 'image') return problems.push(`${doc._id}.${field}: not an image`)
  if (!str(img.alt) || img.alt.length < 3) problems.push(`${doc._id}.${field}.alt: required, 3+ chars`)
  if (img.asset?._type !== 'reference' || !str(img.asset._ref))
    problems.push(`${doc._id}.${field}.asset: missing reference`)
}

const ids = new Set()
for (const doc of documents) {
  if (ids.has(doc._id)) problems.push(`duplicate _id ${doc._id}`)
  ids.add(doc._id)
  checkKeys(doc, doc._id)
  if (doc._type !== 'sanity.imageAsset' && doc._type !== 'siteSettings')
    need(doc, 'order', isOrder, 'integer >= 0 required')

  switch (doc._type) {
    case 'siteSettings': {
      need(doc, 'brandName', maxLen(40), 'required, max 40')
      need(doc, 'description', maxLen(200), 'required, max 200')
      for (const f of ['heroEyebrow', 'heroHeadline', 'heroSubheadline']) need(doc, f, str, 'required')
      checkImage(doc, 'heroImage')
      need(
        doc,
        'sellingPoints',
        (v) => Array.isArray(v) && v.length >= 1 && v.length <= 4 && v.every((s) => maxLen(60)(s)),
        '1 to 4 strings, each <= 60',
      )
      for (const f of [
        'servicesIntro',
        'audienceIntro',
        'calculatorIntro',
        'caseStudiesIntro',
        'faqIntro',
        'reviewsIntro',
        'contactIntro',
        'consultationIntro',
        'portfolioIntro',
      ])
        need(doc, f, maxLen(240), 'required, max 240')
      need(doc, 'contactEmail', (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v ?? ''), 'e-mail required')
      need(doc, 'contactPhone', (v) => /^\+?[0-9 ()-]{7,20}$/.test(v ?? ''), 'phone number required')
      need(
        doc,
        'bookingWidgetUrl',
        (v) => isHttps(v) || /^\/[^\s]*$/.test(v ?? ''),
        'https URL or relative path required',
      )
      need(
        doc,
        'contactWebhookUrl',
        (v) => isHttps(v) || /^\/[^\s]*$/.test(v ?? ''),
        'https URL or relative path required',
      )
      need(doc, 'siteUrl', isHttps, 'https URL required')
      if ('bookingScriptUrl' in doc) problems.push('siteSettings.bookingScriptUrl must not be set')
      break
    }
    case 'service':
      need(
        doc,
        'icon',
        (v) => ['website', 'automation', 'integrations', 'crm', 'chatbot', 'voice'].includes(v),
        'unknown icon',
      )
      need(doc, 'title', str, 'required')
      need(doc, 'description', str, 'required')
      break
    case 'audienceCard':
    case 'growthItem':
      need(doc, 'title', str, 'required')
      need(doc, doc._type === 'growthItem' ? 'content' : 'description', str, 'required')
      break
    case 'caseStudy':
      need(doc, 'title', maxLen(80), 'required, max 80')
      need(doc, 'detailTitle', maxLen(100), 'required, max 100')
      need(
        doc,
        'slug',
        (v) => v?._type === 'slug' && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(v.current ?? ''),
        'bad slug',
      )
      need(doc, 'legacyId', str, 'required')
      for (const f of ['issue', 'solution', 'outcome']) need(doc, f, portableText, 'at least one block')
      need(
        doc,
        'issue',
        (v) => textOf(v[0]).length >= 140,
        'first block should be 140+ chars (cards show 120)',
      )
      checkImage(doc, 'image')
      need(
        doc,
        'details',
        (v) => Array.isArray(v) && (v.length === 3 || v.length === 5) && v.every(str),
        'three or five steps',
      )
      break
    case 'review':
      need(doc, 'name', str, 'required')
      need(doc, 'business', str, 'required')
      need(doc, 'text', (v) => str(v) && v.length >= 20 && v.length <= 400, '20 to 400 chars')
      need(doc, 'stars', (v) => v === 5, 'must be 5')
      need(doc, 'placement', (v) => ['strip', 'section', 'both'].includes(v), 'strip, section or both')
      break
    case 'faq':
      need(doc, 'question', str, 'required')
      need(doc, 'answer', str, 'required')
      break
    case 'portfolioSite':
      need(doc, 'title', str, 'required')
      need(doc, 'description', str, 'required')
      checkImage(doc, 'image')
      need(doc, 'url', isHttps, 'https URL required')
      break
  }
}

// Spec counts: five reviews in the strip, four in the Reviews section.
const inStrip = reviews.filter((r) => r.placement !== 'section').length
const inSection = reviews.filter((r) => r.placement !== 'strip').length
if (inStrip !== 5 || inSection !== 4)
  problems.push(`reviews: strip ${inStrip} (want 5), section ${inSection} (want 4)`)

const ndjson = documents.map((d) => JSON.stringify(d)).join('\n') + '\n'

// Re-read what we are about to write: every line parses, every _ref resolves.
const assetIds = new Set([...assets.values()].map((a) => a._id))
ndjson
  .trimEnd()
  .split('\n')
  .forEach((line, i) => {
    let doc
    try {
      doc = JSON.parse(line)
    } catch (e) {
      return problems.push(`line ${i + 1}: ${e.message}`)
    }
    const refs = []
    JSON.stringify(doc, (k, v) => (k === '_ref' && refs.push(v), v))
    for (const ref of refs)
      if (!assetIds.has(ref)) problems.push(`line ${i + 1}: _ref ${ref} has no asset document`)
  })
for (const a of assets.values())
  if (!existsSync(join(imagesDir, a.originalFilename))) problems.push(`missing file ${a.originalFilename}`)

if (problems.length) {
  console.error(`dataset.ndjson NOT written, ${problems.length} problem(s):`)
  for (const p of problems) console.error(`  - ${p}`)
  process.exit(1)
}

writeFileSync(outFile, ndjson)

const counts = {}
for (const d of documents) counts[d._type] = (counts[d._type] ?? 0) + 1
console.log(`Wrote ${outFile}: ${documents.length} documents`)
for (const [type, n] of Object.entries(counts)) console.log(`  ${type.padEnd(20)} ${n}`)
