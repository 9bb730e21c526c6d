/**
 * The drafts doors (`drafts`, `stega`, `frames`, `broken`, `chain`): drafts an attacker with a Studio login saves,
 * each shown in an open preview session; a page that is not a rendered preview proved nothing, so counts as through.
 */
import { vercelStegaCombine, vercelStegaDecodeAll } from '@vercel/stega'
import type { StoredDocument } from '../../lib/content/source.ts'
import { STUDIO_BASE_PATH } from '../../lib/studio.ts'
import { chainedDrafts } from './draft-chain.ts'
import { DEFAULT_RENDER_LIMITS } from '../../server/preview/preview-renderer.ts'
import {
  bannerOf,
  previewPage,
  previewReady,
  previewSettled,
  sourcesOf,
  writeDataset,
  type DoorsContext,
} from './doors-kit.ts'

/** The seed's documents the drafts are made from. */
type Originals = {
  settings: StoredDocument
  study: StoredDocument
  review: StoredDocument
  faq: StoredDocument
}

function originalsOf(seed: StoredDocument[]): Originals {
  const settings = seed.find((doc) => doc._id === 'siteSettings')
  const study = seed.find((doc) => doc._type === 'caseStudy')
  const review = seed.find((doc) => doc._type === 'review' && doc.placement === 'both')
  const faq = seed.find((doc) => doc._id === 'faq-services')
  if (!settings || !study || !review || !faq)
    throw new Error('audit:doors: the dataset lacks a document the drafts are made from')
  return { settings, study, review, faq }
}

/** Every drafts door, in turn (the chain last: it may cost the preview process its life). */
export async function draftAttempts(context: DoorsContext): Promise<void> {
  const originals = originalsOf(context.seed)
  await hostileDrafts(context, originals)
  await stegaAndFrames(context, originals)
  await brokenDrafts(context, originals)
  writeDataset(context.dataset, context.seed)
}

/** Writes the seed with these drafts in it (`lines`: more, as lines of JSON). */
const withDrafts = (context: DoorsContext, drafts: StoredDocument[], lines: string[] = []) =>
  writeDataset(context.dataset, [...context.seed, ...drafts], lines)

async function hostileDrafts(context: DoorsContext, { settings, study, review }: Originals) {
  const { origin, cookie, attempt } = context
  const previewOf = (url: string) => previewPage(origin, cookie, url)
  const dataUrl = 'data:text/javascript,document.title="pwned"'
  withDrafts(context, [{ ...settings, _id: 'drafts.siteSettings', bookingScriptUrl: dataUrl }])
  const data = await previewOf('/consultation')
  attempt(
    'drafts',
    'a data: script URL in draft settings',
    !data.rendered ||
      data.html.includes('data:text/javascript') ||
      /data:/.test(sourcesOf(data.policy, 'script-src').join(' ')),
  )

  withDrafts(context, [
    { ...settings, _id: 'drafts.siteSettings', bookingScriptUrl: 'https://evil.example/x.js' },
  ])
  const script = await previewOf('/consultation')
  attempt(
    'drafts',
    "another site's script in draft settings (runs only once published)",
    !script.rendered ||
      sourcesOf(script.policy, 'script-src').some((source) => source.includes('evil.example')),
    sourcesOf(script.policy, 'script-src').join(' '),
  )
  attempt(
    'drafts',
    "the preview's policy admits scripts a script loads ('strict-dynamic') or any https host",
    /'strict-dynamic'|\shttps:(\s|;|$)/.test(script.policy),
  )

  const slug = (study.slug as { current: string }).current
  const link = { _type: 'link', _key: 'evil', href: 'javascript:alert(document.domain)' }
  withDrafts(context, [
    {
      ...study,
      _id: `drafts.${study._id}`,
      issue: [
        {
          _type: 'block',
          _key: 'evil1',
          style: 'normal',
          markDefs: [link],
          children: [{ _type: 'span', _key: 'evil1s', text: 'Click here', marks: ['evil'] }],
        },
      ],
    },
  ])
  const scripted = await previewOf(`/case-studies/${encodeURIComponent(slug)}`)
  attempt(
    'drafts',
    'a javascript: link in a draft',
    !scripted.rendered || /href="\s*javascript:/i.test(scripted.html),
  )

  const markup = '<img src=x onerror=alert(1)><script>alert(2)</script>'
  withDrafts(context, [{ ...review, _id: `drafts.${review._id}`, text: markup }])
  const text = await previewOf('/')
  attempt(
    'drafts',
    'HTML-looking text in a draft',
    !text.rendered || text.html.includes(markup) || !text.html.includes('&lt;img src=x onerror=alert(1)&gt;'),
  )
}

/** Whether an edit link points into this site's own Studio (the preview's default, `/studio`). */
const onOwnStudio = (href: string, origin: string) => {
  const url = new URL(href, origin)
  return (
    url.origin === origin &&
    (url.pathname === STUDIO_BASE_PATH || url.pathname.startsWith(`${STUDIO_BASE_PATH}/`))
  )
}

async function stegaAndFrames(context: DoorsContext, { settings }: Originals) {
  const { origin, cookie, attempt } = context
  const headline = vercelStegaCombine(String(settings.heroHeadline), {
    origin: 'sanity.io',
    href: 'https://evil.example/x',
  })
  withDrafts(context, [{ ...settings, _id: 'drafts.siteSettings', heroHeadline: headline }])
  const home = await previewPage(origin, cookie, '/')
  const links = vercelStegaDecodeAll<{ href?: string }>(home.html)
  const foreign = links.filter((link) => !link?.href || !onOwnStudio(link.href, origin))
  attempt(
    'stega',
    "a draft headline ending in its own edit link to another site: every edit link on / is this site's Studio",
    !home.rendered || foreign.length > 0,
    home.rendered
      ? `${foreign.length} of ${links.length} elsewhere: ${foreign[0]?.href ?? ''}`
      : `answered ${home.status}`,
  )

  const frame = 'https://evil-frame.example/book'
  withDrafts(context, [{ ...settings, _id: 'drafts.siteSettings', bookingWidgetUrl: frame }])
  const booking = await previewPage(origin, cookie, '/consultation')
  const frameSources = sourcesOf(booking.policy, 'frame-src')
  attempt(
    'frames',
    'a booking widget on another site, named only by a draft: frame-src',
    !booking.rendered || frameSources.some((source) => source.includes('evil-frame.example')),
    booking.rendered ? frameSources.join(' ') : `answered ${booking.status}`,
  )
}

/** A draft holding an array nested `depth` deep (`[[[…]]]`), as one line of JSON: too deep to stringify. */
const nestedDraftLine = (id: string, depth: number) =>
  `{"_id":"${id}","_type":"auditNested","title":"Deep","nested":${'['.repeat(depth)}${']'.repeat(depth)}}`

async function brokenDrafts(context: DoorsContext, { settings, review, faq }: Originals) {
  const { origin, cookie, attempt } = context
  const broken: { what: string; draft: StoredDocument; line?: string }[] = [
    {
      what: 'a review whose name is an object',
      draft: { ...review, _id: `drafts.${review._id}`, name: { first: 'Ada', last: 'Lovelace' } },
    },
    {
      what: 'a 12 kB draft of a type no page shows, an array nested 6,000 deep',
      draft: { _id: 'drafts.audit-deep', _type: 'auditNested' },
      line: nestedDraftLine('drafts.audit-deep', 6000),
    },
    {
      what: 'drafts.siteSettings of an unknown _type',
      draft: { ...settings, _id: 'drafts.siteSettings', _type: 'auditUnknownSettings' },
    },
    {
      what: `a draft stored as drafts.drafts.${faq._id}`,
      draft: { ...faq, _id: `drafts.drafts.${faq._id}` },
    },
  ]
  for (const { what, draft, line } of broken) {
    if (line) withDrafts(context, [], [line])
    else withDrafts(context, [draft])
    for (const url of ['/', '/sites', '/consultation']) {
      const page = await previewPage(origin, cookie, url)
      attempt(
        'broken',
        `${what}: ${url} renders`,
        !page.rendered,
        page.rendered ? undefined : `answered ${page.status}`,
      )
      if (url !== '/') continue
      const banner = bannerOf(page.html)
      attempt(
        'broken',
        `${what}: the banner names it`,
        !banner.includes(draft._id),
        banner ? undefined : 'no banner',
      )
    }
  }
}

/** Draft case studies in the chain (`chainAttempts`). */
export const CHAIN_LENGTH = 400

/**
 * The chain (see the module comment): the editor must get `/case-studies` with the banner
 * naming the broken study, or the render limit's own page, within the limit (20 s, and 2 s
 * for the answer to travel); and the preview must render `/` within 10 s once the drafts
 * are gone. Afterwards waits until the preview is ready again (a process that ended on a
 * runaway render restarts).
 */
export async function chainAttempts(context: DoorsContext, length = CHAIN_LENGTH): Promise<void> {
  const { origin, cookie, attempt } = context
  const { study } = originalsOf(context.seed)
  await previewSettled(context)
  withDrafts(context, chainedDrafts(study, length, 'audit-chain', true))
  const limitMs = DEFAULT_RENDER_LIMITS.timeLimitMs + 2_000
  const page = await previewPage(origin, cookie, '/case-studies')
  const listed = bannerOf(page.html).includes(`drafts.audit-chain-${length - 1}`)
  const limitPage = page.status === 503 && page.html.includes('took too long')
  attempt(
    'chain',
    `${length} chained draft case studies, the last link broken: /case-studies (banner listing it) or the limit's page within ${limitMs / 1000} s`,
    page.ms > limitMs || !((page.rendered && listed) || limitPage),
    `${page.status} in ${page.ms} ms${page.rendered ? (listed ? ', broken one listed' : ', broken one not listed') : ''}`,
  )
  writeDataset(context.dataset, context.seed)
  const started = performance.now()
  const after = await (async () => {
    try {
      const answer = await fetch(`${origin}/`, { headers: { cookie }, signal: AbortSignal.timeout(10_000) })
      return { status: answer.status, html: await answer.text() }
    } catch (error) {
      // No answer, or one that stopped halfway, within the 10 s.
      return { status: 0, html: (error as Error).message }
    }
  })()
  attempt(
    'chain',
    'the preview renders / within 10 s once the chain is gone',
    !(after.status === 200 && after.html.includes('Leave preview')),
    `${after.status || 'no answer'} after ${Math.round(performance.now() - started)} ms`,
  )
  await previewReady(context)
}
