/**
 * Browser tests that build the site themselves (so they run one at a time, after the others).
 *
 * The editor's loop, offline, with real builds: a second server (the one `npm start`
 * runs) on a copy of the local dataset; an edit, `npm run publish:local`, and the
 * browser shows it; an invalid edit fails its build and the site stays as it was.
 * And a second dataset whose settings point at a third-party booking widget; and builds
 * that take unchanged pages from the live one, compared with full builds byte for byte.
 * Runs after the other browser tests (playwright.config.ts: project "rebuilds"),
 * because its builds take the machine's cores for a while.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { descendantsOf, serveExport, type ServedSite } from '../../scripts/audit/serve'
import { openPresentation } from './presentation'
import { readHealth, sendWebhook } from '../../scripts/publisher-client'
import { NOT_FOUND_ROUTE } from '../../scripts/audit/routes'
import { collectPageTexts, coverageOf, ownedTexts, previewRoutes } from './stega-coverage'
import { withPerspective, type StoredDocument } from '../../lib/content/source'
import { VERCEL_STEGA_REGEX } from '@vercel/stega'
import { operatorHeaders, operatorToken } from '../../server/secrets'
import type { Page } from '@playwright/test'
import sharp from 'sharp'
import { expect, test } from './fixtures'
import { MALICIOUS_SVG, RAN_PATH, whatRan } from './malicious-svg'

/** Origin of the publishing server (set when it has started). */
let BASE = ''
const SECRET = 'e2e-publish-secret-0123456789abcdef012345'
const PREVIEW_SECRET = 'e2e-preview-secret-0123456789abcdef012345'
/** What the operator's scripts prove themselves with (server/secrets.ts). */
const OPERATOR = operatorHeaders(SECRET)
test.describe.configure({ mode: 'serial', timeout: 240_000 })

let dir: string
let server: ServedSite
let dataset: string

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- documents of every type, read as JSON
type Doc = Record<string, any>

/** The documents of an NDJSON dataset file. */
const readDocuments = (file: string): Doc[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))

/** Writes documents as an NDJSON dataset file. */
const writeDocuments = (file: string, documents: Doc[]) =>
  writeFileSync(file, documents.map((doc) => JSON.stringify(doc)).join('\n') + '\n')

function edit(id: string, change: (doc: Doc) => void) {
  const documents = readDocuments(dataset)
  for (const doc of documents) if (doc._id === id) change(doc)
  writeDocuments(dataset, documents)
}

function publishLocal(...args: string[]) {
  return spawnSync(process.execPath, ['scripts/publish-local.ts', '--url', BASE, ...args], {
    env: { ...process.env, SANITY_WEBHOOK_SECRET: SECRET },
    encoding: 'utf8',
    timeout: 200_000,
  })
}

/** The build `out/` held when the first publishing server started. */
let pristine: string | undefined

/**
 * Starts the publishing server on a fresh copy of the seed (`dataset`, `BASE`), and stops
 * it after the describe block.
 * @param env more settings, e.g. SANITY_PREVIEW_SECRET
 */
function publishingServer(env: Record<string, string> = {}) {
  test.beforeAll(async () => {
    // A server's publishes take out/ into its own store: each server starts from the build
    // the suite was given, kept aside by the first one (no build at startup).
    if (existsSync('out/.build.json')) {
      pristine ??= mkdtempSync(path.join(os.tmpdir(), 'e2e-pristine-'))
      cpSync('out', pristine, { recursive: true })
    } else if (pristine) cpSync(pristine, 'out', { recursive: true })
    dir = mkdtempSync(path.join(os.tmpdir(), 'e2e-publish-'))
    cpSync('studio/seed', path.join(dir, 'seed'), { recursive: true })
    dataset = path.join(dir, 'seed', 'dataset.ndjson')
    server = await serveExport(path.resolve('out'), {
      timeoutMs: 200_000, // builds first when out/ holds no complete build
      // Every request the log takes (LOG_LEVEL=info), for the check below.
      env: { LOCAL_DATASET: dataset, SANITY_WEBHOOK_SECRET: SECRET, LOG_LEVEL: 'info', ...env },
    })
    BASE = server.origin
  })

  test.afterAll(async () => {
    const log = server?.output() ?? ''
    await server?.stop()
    rmSync(dir, { recursive: true, force: true })
    // The whole log of this server: every publish, preview, refusal and error, and no secret.
    expect(log).toMatch(/"event":"(build.done|preview.ready)"/)
    for (const secret of [SECRET, PREVIEW_SECRET, operatorToken(SECRET)]) expect(log).not.toContain(secret)
  })
}

/**
 * A document's publish state as the Studio's badge reads it, from the site's own origin:
 * asked without a proof (anyone: the state, no reason), then as an editor (the reason).
 * @returns the editor's answer
 */
async function badge(page: Page, id: string): Promise<{ state: string; reason?: string }> {
  const [anyone, editor] = await page.evaluate(
    async ({ id, headers }) =>
      Promise.all(
        [{}, headers].map(async (given) =>
          (await fetch(`/api/publish-status/${id}`, { headers: given })).json(),
        ),
      ),
    { id, headers: OPERATOR },
  )
  expect(anyone).toEqual({ state: editor.state, at: editor.at })
  return editor
}

test.describe("the editor's loop, offline", () => {
  publishingServer()

  test('edit -> publish:local -> the new content is live; an invalid edit leaves it live', async ({
    page,
  }) => {
    const review = readDocuments(dataset).find((doc) => doc._type === 'review' && doc.placement !== 'strip')!
    const text = `Published from the e2e test at ${new Date().toISOString()}.`
    edit(review._id, (doc) => (doc.text = text))
    // The pages this review is not on, as the build before the publish serves them.
    const untouched = [
      '/sites',
      '/consultation',
      '/case-studies',
      `/case-studies/${readDocuments(dataset).find((doc) => doc._type === 'caseStudy')!.slug.current}`,
      '/no-such-page',
    ]
    const bytesOf = async (path: string) => (await fetch(`${BASE}${path}`)).text()
    const before = await Promise.all(untouched.map(bytesOf))

    const published = publishLocal()
    expect(published.stderr).toBe('')
    expect(published.status).toBe(0)
    expect(published.stdout).toMatch(/is live, [\d.]+ s after publishing/)
    await page.goto(`${BASE}/`)
    await expect(page.locator('#reviews')).toContainText(text)
    // The same code gives the same bytes: a page whose content did not change is, in the
    // new build, byte for byte the page that was live (the build id is the code's version).
    const after = await Promise.all(untouched.map(bytesOf))
    for (const [index, path] of untouched.entries())
      expect([path, after[index] === before[index]]).toEqual([path, true])

    edit(review._id, (doc) => (doc.stars = 4))
    const failed = publishLocal()
    expect(failed.status).toBe(1)
    expect(failed.stderr).toContain(
      `Invalid content: document "${review._id}", field "stars": Must be greater than or equal to 5`,
    )
    await page.reload()
    await expect(page.locator('#reviews')).toContainText(text)
    // Anyone learns that the site is up; the operator (and editors) why the build failed.
    const anyone = await (await fetch(`${BASE}/healthz`)).json()
    expect(Object.keys(anyone).sort()).toEqual(['building', 'live', 'ok', 'queued'])
    const health = await readHealth(BASE, SECRET)
    expect(health.lastError?.message).toContain(`document "${review._id}"`)
    // Put the review right again for the next test.
    edit(review._id, (doc) => (doc.stars = 5))
  })

  test("an editor's SVG with scripts, chosen as a portfolio site's image, goes live cleaned: opened on its own, nothing of it runs", async ({
    page,
  }) => {
    const documents = readDocuments(dataset)
    const site = documents.find((doc) => doc._type === 'portfolioSite')!
    // Uploaded as Sanity would store it: an asset named by the file's sha1, the file beside the dataset.
    const sha1 = createHash('sha1').update(MALICIOUS_SVG).digest('hex')
    const assetId = `image-${sha1}-40x40-svg`
    writeFileSync(path.join(path.dirname(dataset), 'images', 'e2e-site.svg'), MALICIOUS_SVG)
    const asset = {
      _id: assetId,
      _type: 'sanity.imageAsset',
      assetId: sha1,
      sha1hash: sha1,
      extension: 'svg',
      mimeType: 'image/svg+xml',
      originalFilename: 'e2e-site.svg',
      size: Buffer.byteLength(MALICIOUS_SVG),
      metadata: { _type: 'sanity.imageMetadata', dimensions: { width: 40, height: 40, aspectRatio: 1 } },
    }
    const image = { ...site.image, asset: { _type: 'reference', _ref: assetId } }
    writeDocuments(dataset, [
      ...documents.map((doc) => (doc._id === site._id ? { ...doc, image } : doc)),
      asset,
    ])
    const published = publishLocal('--document', site._id)
    expect(published.status, published.stderr).toBe(0)

    // The live file is the drawing without what runs; served under a policy that runs nothing anyway.
    const src = `/media/${sha1}-40x40.svg`
    const answer = await fetch(`${BASE}${src}`)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-security-policy')).toBe(
      "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox",
    )
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
    const served = await answer.text()
    expect(served).toContain('<rect id="square"')
    expect(served).not.toMatch(/script|onload|onmouseover|foreignObject|iframe|javascript:/i)

    // Opened on its own in Chromium, on the origin that serves /studio: nothing runs, it still draws.
    const asked: string[] = []
    page.on('request', (request) => asked.push(new URL(request.url()).pathname))
    await page.goto(`${BASE}${src}`)
    expect(await whatRan(page, asked)).toEqual({ ran: [], square: 'rgb(255, 0, 0)', dot: 'rgb(0, 0, 255)' })
    // And in the page that shows it.
    await page.goto(`${BASE}/sites`)
    await expect(page.getByRole('img', { name: String(site.image.alt) })).toBeVisible()
    expect(await page.title()).not.toBe('ran')
    expect(asked.filter((path) => path.startsWith(RAN_PATH))).toEqual([])
  })

  test('a published link to a page that does not exist never goes live; the Studio reads why', async ({
    page,
  }) => {
    const study = readDocuments(dataset).find((doc) => doc._type === 'caseStudy')!
    const address = `/case-studies/${study.slug.current}`
    await page.goto(`${BASE}${address}`)
    await expect(page.locator('main')).not.toContainText('Read the follow-up')

    edit(study._id, (doc) => {
      const blocks = doc.outcome as { markDefs: unknown[]; children: { text: string; marks: string[] }[] }[]
      blocks[0]!.markDefs = [{ _type: 'link', _key: 'nope', href: '/case-studies/nope' }]
      blocks[0]!.children.push({
        _type: 'span',
        _key: 'nope-s',
        text: ' Read the follow-up.',
        marks: ['nope'],
      } as never)
    })
    const failed = publishLocal('--document', study._id)
    expect(failed.status).toBe(1)
    // The build's first step runs the Studio's own rule on the link (the gate stays the last line).
    const reason = `document "${study._id}", field "outcome`
    expect(failed.stderr).toContain(reason)
    expect(failed.stderr).toContain('There is no page at /case-studies/nope on this site')

    // The live page is the one before the publish.
    await page.reload()
    await expect(page.locator('main')).not.toContainText('Read the follow-up')
    // What the Studio's badge reads: anyone, the state; an editor, the lines naming the document.
    const status = await badge(page, `drafts.${study._id}`)
    expect(status).toMatchObject({ state: 'failed', reason: expect.stringContaining(reason) })
  })

  test('unpublishing a case study another one links to is held back, naming the linking document and its field', async ({
    page,
  }) => {
    test.setTimeout(420_000) // two builds
    // From the seed: the test before left a broken link in the dataset.
    const [linking, linked] = readDocuments('studio/seed/dataset.ndjson').filter(
      (doc) => doc._type === 'caseStudy',
    )
    const from = `/case-studies/${linking!.slug.current}`
    const to = `/case-studies/${linked!.slug.current}`
    // A text link in the case study's Outcome, as the Studio stores one (the link annotation).
    const outcome = structuredClone(linking!.outcome)
    outcome[0].markDefs = [{ _type: 'link', _key: 'sibling', href: to }]
    outcome[0].children.push({
      _type: 'span',
      _key: 'sibling-s',
      text: ' See the other story.',
      marks: ['sibling'],
    })
    writeDocuments(
      dataset,
      readDocuments(dataset).map((doc) => (doc._id === linking!._id ? { ...linking, outcome } : doc)),
    )
    const added = publishLocal('--document', linking!._id)
    expect(added.status, added.stderr).toBe(0)
    await page.goto(`${BASE}${from}`)
    await expect(page.getByRole('link', { name: 'See the other story.' })).toHaveAttribute('href', to)

    // Unpublished: gone from the dataset. Only the list pages change; the linking page does not.
    writeDocuments(
      dataset,
      readDocuments(dataset).filter((doc) => doc._id !== linked!._id),
    )
    const unpublished = publishLocal('--document', linked!._id)
    expect(unpublished.status).toBe(1)
    // The linking document's link now leads nowhere: its rule refuses the build, naming it.
    const reason = `document "${linking!._id}", field "outcome`
    expect(unpublished.stderr).toContain(reason)
    expect(unpublished.stderr).toContain(`There is no page at ${to} on this site`)
    expect(unpublished.stderr).not.toMatch(/\/(tmp|home|work)\//) // no folders of this machine

    // The live site is the one before: the case study is still served.
    const answer = await page.goto(`${BASE}${to}`)
    expect(answer?.status()).toBe(200)
    await expect(page.locator('h1')).toContainText(linked!.detailTitle)
    // The unpublished document's badge says which document held its publish back.
    const status = await badge(page, linked!._id)
    expect(status).toMatchObject({
      state: 'failed',
      reason: `the build failed for another document: ${linking!._id}`,
    })
  })
})

/** Waits until the publisher's preview server is ready (it may build first: minutes). */
async function previewReady() {
  await expect
    .poll(async () => (await readHealth(BASE, SECRET)).preview, {
      timeout: 400_000,
      intervals: [1000],
    })
    .toBe('ready')
}

/** The publisher's build count now (a preview request must never change it). */
const buildCount = async () => (await readHealth(BASE, SECRET)).buildCounts.succeeded

// Preview on: the publisher also runs the preview server (the same app, rendered on request).
test.describe("editors' draft preview, rendered on request, offline", () => {
  publishingServer({ SANITY_PREVIEW_SECRET: PREVIEW_SECRET })
  test.beforeAll(async () => {
    test.setTimeout(420_000) // the preview server's build, when the code changed since it was made
    await previewReady()
  })

  test('click-to-edit: every text an editor owns, on every route, links to its document and field; nothing else carries stega', async ({
    page,
  }) => {
    // What the preview shows: the dataset through its default perspective (no draft yet).
    const view = withPerspective(readDocuments(dataset) as StoredDocument[], 'drafts')
    const owned = ownedTexts(view)
    const routes = previewRoutes(view)
    const suspicious: string[] = []
    page.on('console', (message) => {
      if (message.text().startsWith('preview: stega')) suspicious.push(`${page.url()} ${message.text()}`)
    })
    await page.goto(`${BASE}/preview/enable?secret=${PREVIEW_SECRET}&redirect=/`)
    const figures: string[] = []
    // On a desktop's screen and a phone's: what covers what (a card's link) differs.
    for (const [width, route] of [1280, 390].flatMap((size) => routes.map((path) => [size, path] as const))) {
      await page.setViewportSize({ width, height: 800 })
      await page.goto(`${BASE}${route}`)
      // Visual editing is on (its overlays' root), and its check for stega where it breaks
      // things has run: it runs when the browser is idle.
      await page.locator('sanity-visual-editing').waitFor({ state: 'attached' })
      await page.evaluate(
        () => new Promise((resolve) => requestIdleCallback(() => requestIdleCallback(resolve))),
      )
      const coverage = coverageOf(await page.evaluate(collectPageTexts), owned)
      if (width === 1280) figures.push(`${route}: ${coverage.linked} of ${coverage.owned}`)
      expect(coverage.unlinked, `${route} at ${width} px`).toEqual([])
      expect(coverage.wrong, `${route} at ${width} px`).toEqual([])
      expect(coverage.unreachable, `${route} at ${width} px`).toEqual([])
      if (route !== NOT_FOUND_ROUTE) expect(coverage.owned, `${route} at ${width} px`).toBeGreaterThan(0)
      // <head>, structured data, addresses and every attribute but an image's alt text are clean.
      const dirty = await page.evaluate((source) => {
        const stega = new RegExp(source, 'u')
        const found: string[] = []
        if (stega.test(document.head.outerHTML)) found.push('<head>')
        for (const script of document.querySelectorAll('script[type="application/ld+json"]'))
          if (stega.test(script.textContent ?? '')) found.push('JSON-LD')
        for (const element of document.body.querySelectorAll('*')) {
          if (element.closest('sanity-visual-editing')) continue
          for (const { name, value } of element.attributes)
            if (stega.test(value) && !(name === 'alt' || name === 'aria-label'))
              found.push(`<${element.tagName.toLowerCase()} ${name}>`)
        }
        if (stega.test(decodeURIComponent(location.href))) found.push('the address')
        return found
      }, VERCEL_STEGA_REGEX.source)
      expect(dirty, `${route} at ${width} px`).toEqual([])
    }
    expect(suspicious).toEqual([])
    test.info().annotations.push({ type: 'click-to-edit coverage', description: figures.join('; ') })
    console.log(`click-to-edit coverage (linked of owned texts): ${figures.join('; ')}`)
    await page.goto(`${BASE}/preview/disable`)
  })

  test('outside Presentation, hovering a heading shows "Open in Studio", linking to its document and field', async ({
    page,
  }) => {
    await page.goto(`${BASE}/preview/enable?secret=${PREVIEW_SECRET}&redirect=/`)
    const open = page.getByRole('link', { name: 'Open in Studio' })
    // The overlays find the page's elements once hydrated: hover until the one shows.
    const hover = async (target: ReturnType<Page['locator']>) =>
      expect(async () => {
        await page.mouse.move(0, 0)
        await target.hover()
        await expect(open).toHaveCount(1, { timeout: 1000 })
      }).toPass({ timeout: 20_000 })
    await hover(page.getByRole('heading', { level: 1 }))
    const href = new URL((await open.getAttribute('href'))!)
    expect(href.pathname).toBe(
      '/studio/intent/edit/mode=presentation;id=siteSettings;type=siteSettings;path=heroHeadline',
    )
    expect(await open.getAttribute('target')).toBe('_blank')
    // A case study's portable text: the span, by its block's and its own keys.
    const study = readDocuments(dataset).find(
      (doc) => doc._type === 'caseStudy' && !doc._id.startsWith('drafts.'),
    )!
    await page.goto(`${BASE}/case-studies/${study.slug.current}`)
    const block = study.issue[0]
    await hover(page.locator('#box-issue + div p').first())
    const span = decodeURIComponent(new URL((await open.getAttribute('href'))!).pathname)
    expect(span).toBe(
      // Visual editing writes the path in its URL form: `field:key` for a keyed item.
      `/studio/intent/edit/mode=presentation;id=${study._id};type=caseStudy;path=issue:${block._key}.children:${block.children[0]._key}.text`,
    )
    await page.goto(`${BASE}/preview/disable`)
  })

  test('a draft shows in the preview on the next request, with no build; the live site does not change', async ({
    page,
  }) => {
    const builds = await buildCount()
    const documents = readDocuments(dataset)
    const review = documents.find((doc) => doc._type === 'review' && doc.placement === 'both')!
    const words = `Drafted in the e2e test at ${new Date().toISOString()}, not yet published.`
    writeDocuments(dataset, [...documents, { ...review, _id: `drafts.${review._id}`, text: words }])
    // Its webhook (Sanity sends one for a draft with drafts on) builds nothing.
    const drafted = publishLocal('--document', `drafts.${review._id}`)
    expect(drafted.stdout).toMatch(/a draft builds nothing/)

    // Visitors: the live site, nothing of the preview.
    await page.goto(`${BASE}/`)
    await expect(page.locator('#reviews')).not.toContainText(words)
    await expect(page.getByRole('complementary', { name: 'Preview' })).toHaveCount(0)

    // The editor: in through the secret, the draft on the real page, a banner naming it.
    const answer = await page.goto(`${BASE}/preview/enable?secret=${PREVIEW_SECRET}&redirect=/%23reviews`)
    const headers = answer!.headers()
    expect(headers['x-robots-tag']).toBe('noindex')
    expect(headers['cache-control']).toMatch(/private/)
    expect(headers['cache-control']).toMatch(/no-store/)
    // Scripts from this site with this response's nonce, nothing loaded by a script from
    // elsewhere; the Studio (this site) may frame it.
    expect(headers['content-security-policy']).toMatch(/script-src 'self' 'nonce-[^']+';/)
    expect(headers['content-security-policy']).not.toMatch(/strict-dynamic|https:[\s;]/)
    expect(headers['content-security-policy']).toMatch(/frame-ancestors 'self'(;|$)/)
    // Rendered for this request, whatever Next's cache would say.
    expect(headers['x-nextjs-cache']).toBeUndefined()
    // The booking widget's stand-in answers in the preview as on the live site.
    const booking = await page.request.get(`${BASE}/booking/`)
    expect([booking.status(), booking.headers()['content-type']]).toEqual([
      200,
      expect.stringMatching(/text\/html/),
    ])
    await expect(page.locator('#reviews')).toContainText(words)
    const banner = page.getByRole('complementary', { name: 'Preview' })
    await expect(banner.getByRole('link', { name: review.name })).toHaveAttribute(
      'href',
      `/studio/intent/edit/id=${review._id};type=review`,
    )

    // The next change shows on the next request: no webhook, no build.
    const again = `${words} Changed again.`
    edit(`drafts.${review._id}`, (doc) => (doc.text = again))
    await page.reload()
    await expect(page.locator('#reviews')).toContainText(again)
    expect(await buildCount()).toBe(builds)
    // The live site, to a visitor, is as it was.
    const visitor = await (await fetch(`${BASE}/`)).text()
    expect(visitor).not.toContain('Changed again')
    expect(visitor).not.toContain('Leave preview')

    await banner.getByRole('link', { name: 'Leave preview' }).click()
    await expect(page.getByRole('complementary', { name: 'Preview' })).toHaveCount(0)
    await expect(page.locator('#reviews')).not.toContainText(words)
    // Visitors' pages are never framed, not even by the site itself.
    expect(await framedText(page, '/sites')).toBe('')
  })

  test('a draft-only case study renders at its own address; a release shows only under its perspective', async ({
    page,
  }) => {
    const documents = readDocuments(dataset)
    const study = documents.find((doc) => doc._type === 'caseStudy' && !doc._id.startsWith('drafts.'))!
    const review = documents.find((doc) => doc._type === 'review' && doc.placement === 'both')!
    const fresh = {
      ...study,
      _id: 'drafts.e2e-new-case-study',
      slug: { _type: 'slug', current: 'e2e-new-case-study' },
      legacyId: 'e2e-new-case-study',
      detailTitle: 'A case study that exists only as a draft',
    }
    const spring = `In the spring release, written by the e2e test at ${Date.now()}.`
    writeDocuments(dataset, [
      ...documents,
      fresh,
      { ...review, _id: `versions.rSpring.${review._id}`, text: spring },
    ])
    expect((await fetch(`${BASE}/case-studies/e2e-new-case-study`)).status).toBe(404)

    await page.goto(
      `${BASE}/preview/enable?secret=${PREVIEW_SECRET}&redirect=/case-studies/e2e-new-case-study`,
    )
    await expect(page.getByRole('heading', { level: 1 })).toContainText(fresh.detailTitle) // and its edit link, invisible

    // Drafts (the default) do not show the release; its perspective does.
    await page.goto(`${BASE}/`)
    await expect(page.locator('#reviews')).not.toContainText(spring)
    const choose = (perspective: string) =>
      page.evaluate(
        async (value) =>
          (
            await fetch('/preview/perspective', {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify({ perspective: value }),
            })
          ).status,
        perspective,
      )
    expect(await choose('rSpring,drafts')).toBe(204)
    await page.reload()
    await expect(page.locator('#reviews')).toContainText(spring)
    expect(await choose('raw')).toBe(400)
    expect(await choose('published')).toBe(204)
    await page.goto(`${BASE}/case-studies/e2e-new-case-study`)
    await expect(page.getByRole('heading', { level: 1 })).not.toContainText(fresh.detailTitle)
    await page.goto(`${BASE}/preview/disable`)
  })

  test("a draft's new image shows in the preview, from the dataset, at its size; the live site is unchanged", async ({
    page,
  }) => {
    const documents = readDocuments(dataset).filter((doc) => !doc._id.startsWith('drafts.'))
    const study = documents.find((doc) => doc._type === 'caseStudy')!
    const live = await (await fetch(`${BASE}/case-studies/${study.slug.current}`)).text()
    // An editor uploads a new photo: Sanity's asset document, named by the file's sha1, and
    // the file beside the dataset; only the draft refers to it, so no build has copied it.
    const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3a7bd5' } })
      .png()
      .toBuffer()
    const sha1 = createHash('sha1').update(photo).digest('hex')
    const assetId = `image-${sha1}-640x480-png`
    writeFileSync(path.join(path.dirname(dataset), 'images', 'e2e-draft-photo.png'), photo)
    const asset = {
      _id: assetId,
      _type: 'sanity.imageAsset',
      assetId: sha1,
      sha1hash: sha1,
      extension: 'png',
      mimeType: 'image/png',
      originalFilename: 'e2e-draft-photo.png',
      size: photo.length,
      metadata: {
        _type: 'sanity.imageMetadata',
        dimensions: { width: 640, height: 480, aspectRatio: 4 / 3 },
      },
    }
    const image = { ...study.image, asset: { _type: 'reference', _ref: assetId } }
    writeDocuments(dataset, [...documents, asset, { ...study, _id: `drafts.${study._id}`, image }])

    await page.goto(
      `${BASE}/preview/enable?secret=${PREVIEW_SECRET}&redirect=/case-studies/${study.slug.current}`,
    )
    const shown = page.locator(`img[src="/preview-media/${assetId}"]`)
    await expect(shown).toHaveAttribute('width', '640')
    await expect(shown).toHaveAttribute('height', '480')
    await expect
      .poll(() => shown.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(640)
    const file = await page.request.get(`${BASE}/preview-media/${assetId}`)
    expect([file.status(), file.headers()['content-type']]).toEqual([200, 'image/png'])
    expect(Buffer.from(await file.body())).toEqual(photo)

    // Visitors: the same page as before, and no way to the draft's image.
    expect(await (await fetch(`${BASE}/case-studies/${study.slug.current}`)).text()).toBe(live)
    expect(live).not.toContain('/preview-media/')
    expect((await fetch(`${BASE}/preview-media/${assetId}`)).status).toBe(404)
    writeDocuments(dataset, documents)
    await page.goto(`${BASE}/preview/disable`)
  })

  test("Presentation's handshake, and a refresh on a saved change with no reload", async ({ page }) => {
    await page.goto(`${BASE}/preview/enable?secret=${PREVIEW_SECRET}&redirect=/`)
    // Framed, a preview page answers Presentation's handshake: visual editing is connected.
    const presentation = await openPresentation(page, '/')
    const said = async () => (await presentation.messages()).map(({ type, from }) => `${type} from ${from}`)
    expect(await said()).toContain('handshake/syn-ack from overlays')
    // Then an editor's change is saved (a draft of the site settings' hero headline).
    const saved = `Saved in the Studio at ${new Date().toISOString()}`
    const documents = readDocuments(dataset).filter((doc) => doc._id !== 'drafts.siteSettings')
    const settings = documents.find((doc) => doc._id === 'siteSettings')!
    writeDocuments(dataset, [...documents, { ...settings, _id: 'drafts.siteSettings', heroHeadline: saved }])
    await presentation.refresh('mutation')
    // The saved change shows in the frame without a reload of the frame, and Presentation
    // hears that the refresh is over.
    await expect.poll(() => presentation.text(), { timeout: 10_000 }).toContain(saved)
    expect(await presentation.loads()).toBe(1)
    await expect.poll(said).toContain('visual-editing/refreshed from overlays')
    await presentation.close()
    writeDocuments(dataset, documents)
    await page.goto(`${BASE}/preview/disable`)
  })

  test('in Presentation, a click on a heading focuses its field: the frame posts its document and path', async ({
    page,
  }) => {
    await page.goto(`${BASE}/preview/enable?secret=${PREVIEW_SECRET}&redirect=/`)
    const presentation = await openPresentation(page, '/')
    const heading = presentation.frame.getByRole('heading', { level: 1 })
    // `visual-editing/focus`, which the frame posts in the protocol's older dialect, as
    // `overlay/focus` (Presentation reads both).
    const focused = async () =>
      (await presentation.messages()).filter((message) =>
        ['visual-editing/focus', 'overlay/focus'].includes(message.type),
      )
    // The overlays find the page's elements once hydrated: click until one is focused.
    await expect(async () => {
      await heading.hover()
      await heading.click()
      expect(await focused()).not.toHaveLength(0)
    }).toPass({ timeout: 20_000 })
    expect((await focused())[0]!.data).toMatchObject({
      id: 'siteSettings',
      type: 'siteSettings',
      path: 'heroHeadline',
      baseUrl: '/studio',
    })
    // Inside the frame a click edits: no "Open in Studio" link, and the page did not navigate.
    expect(await presentation.loads()).toBe(1)
    await presentation.close()
    await page.goto(`${BASE}/preview/disable`)
  })

  test("a draft's script URL that breaks the rules never runs: the published settings show, the banner says why", async ({
    page,
  }) => {
    const documents = readDocuments(dataset).filter((doc) => doc._id !== 'drafts.siteSettings')
    const settings = documents.find((doc) => doc._id === 'siteSettings')!
    writeDocuments(dataset, [
      ...documents,
      {
        ...settings,
        _id: 'drafts.siteSettings',
        bookingScriptUrl: 'data:text/javascript,document.title="pwned"',
      },
    ])
    const violations: string[] = []
    page.on('console', (message) => {
      if (/Content Security Policy/.test(message.text())) violations.push(message.text())
    })
    await page.goto(`${BASE}/preview/enable?secret=${PREVIEW_SECRET}&redirect=/consultation`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Free Consultation')
    await page.waitForLoadState('load')
    await page.waitForTimeout(1000) // the widget's script loads lazily (after load)
    expect(await page.title()).not.toBe('pwned')
    expect(await page.locator('script[src^="data:"]').count()).toBe(0)
    const problems = page.getByRole('region', { name: 'Not shown: drafts that break a rule' })
    await expect(problems).toContainText('drafts.siteSettings')
    await expect(problems.getByRole('link', { name: 'bookingScriptUrl' })).toHaveAttribute(
      'href',
      /\/studio\/intent\/edit\/id=siteSettings;type=siteSettings;path=bookingScriptUrl/,
    )
    expect(violations).toEqual([])
    writeDocuments(dataset, documents)
    await page.goto(`${BASE}/preview/disable`)
  })

  test('a malformed draft takes no page down: the published version shows, the banner names document and field', async ({
    page,
  }) => {
    // Published documents only: an earlier test's drafts would stand in front of this one.
    const documents = readDocuments(dataset).filter((doc) => !doc._id.startsWith('drafts.'))
    const review = documents.find((doc) => doc._type === 'review' && doc.placement === 'both')!
    const malformed: Doc = { ...review, _id: `drafts.${review._id}`, text: { broken: true } }
    delete malformed.name
    writeDocuments(dataset, [...documents, malformed])
    await page.goto(`${BASE}/preview/enable?secret=${PREVIEW_SECRET}&redirect=/`)
    for (const path of ['/', '/case-studies']) {
      const answer = await page.goto(`${BASE}${path}`)
      expect([path, answer!.status()]).toEqual([path, 200])
    }
    await page.goto(`${BASE}/`)
    await expect(page.locator('#reviews')).toContainText(review.text)
    const problems = page.getByRole('region', { name: 'Not shown: drafts that break a rule' })
    await expect(problems).toContainText(`drafts.${review._id}`)
    await expect(problems.getByRole('link', { name: 'name' })).toBeVisible()
    await expect(problems.getByRole('link', { name: 'text' }).first()).toBeVisible()
    // A page that is not there is 404 in the preview too.
    expect((await page.goto(`${BASE}/case-studies/no-such-case-study`))!.status()).toBe(404)
    writeDocuments(dataset, documents)
    await page.goto(`${BASE}/preview/disable`)
  })

  test('hostile drafts take no page down: each is left out with its reason in the banner, every page renders', async ({
    page,
  }) => {
    const documents = readDocuments(dataset).filter((doc) => !doc._id.startsWith('drafts.'))
    const review = documents.find((doc) => doc._type === 'review' && doc.placement === 'both')!
    const settings = documents.find((doc) => doc._id === 'siteSettings')!
    const faq = documents.find((doc) => doc._id === 'faq-services')!
    const hostile: Doc[] = [
      { ...review, _id: `drafts.${review._id}`, name: { first: 'Mallory' } },
      // 6,000 arrays one in the next (12 kB), written into the file below: JSON.stringify cannot.
      { _id: 'drafts.deep-junk', _type: 'junk', deep: 'MARKER-DEEP' },
      { ...settings, _id: 'drafts.siteSettings', _type: 'siteSettingz', brandName: 'Gone Brand' },
      { ...faq, _id: 'drafts.drafts.faq-services', question: 'An odd id?' },
    ]
    const deep = `${'['.repeat(6000)}${']'.repeat(6000)}`
    writeFileSync(
      dataset,
      [...documents, ...hostile]
        .map((doc) => JSON.stringify(doc))
        .join('\n')
        .replace('"MARKER-DEEP"', deep) + '\n',
    )
    await page.goto(`${BASE}/preview/enable?secret=${PREVIEW_SECRET}&redirect=/`)
    for (const path of ['/', '/sites', '/consultation']) {
      const answer = await page.goto(`${BASE}${path}`)
      expect([path, answer!.status()]).toEqual([path, 200])
      const problems = page.getByRole('region', { name: 'Not shown: drafts that break a rule' })
      for (const draft of hostile) await expect(problems).toContainText(draft._id)
      await expect(page.getByRole('contentinfo')).toContainText(String(settings.brandName))
    }
    writeDocuments(dataset, documents)
    await page.goto(`${BASE}/preview/disable`)
  })

  test('the preview process killed mid-render: visitors never notice, editors get 503 with the reason, it comes back', async ({
    page,
  }) => {
    await page.goto(`${BASE}/preview/enable?secret=${PREVIEW_SECRET}&redirect=/`)
    await expect(page.getByRole('complementary', { name: 'Preview' })).toBeVisible()
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ')
    const first = server.previewPid()
    expect(first).toBeGreaterThan(0)
    const rendering = fetch(`${BASE}/case-studies`, { headers: { cookie } }).then(
      (answer) => answer.status,
      () => 0,
    )
    process.kill(first!, 'SIGKILL')
    const visitors = await Promise.all(
      Array.from({ length: 20 }, async () => (await fetch(`${BASE}/`)).status),
    )
    expect(visitors).toEqual(Array(20).fill(200))
    // The render it was doing: the page, had it finished, or a 503 saying why, never a hang.
    expect([200, 503]).toContain(await rendering)
    const down = await fetch(`${BASE}/sites`, { headers: { cookie } })
    // Unless it is back already (it restarts after 1 s): a page saying why, in a fixed
    // sentence; the process's own error stays in the log.
    if (down.status !== 200) {
      const text = await down.text()
      expect([down.status, text]).toEqual([
        503,
        expect.stringMatching(/restarting after its process ended|did not answer/),
      ])
      expect(text).not.toMatch(/SIGKILL|drafts\./)
    }
    await expect
      .poll(async () => (await fetch(`${BASE}/sites`, { headers: { cookie } })).status, { timeout: 60_000 })
      .toBe(200)
    expect(server.previewPid()).not.toBe(first)
    expect(server.output()).toMatch(/"event":"preview.down".*killed by SIGKILL/)
    await page.goto(`${BASE}/preview/disable`)
  })

  test('a visitor never reaches the preview server: no cookie, forged cookies, a closed session', async ({
    page,
    browser,
  }) => {
    const marks = ['Leave preview', 'aria-label="Preview"']
    const visitorSees = async (cookie?: string) => {
      const html = await (await fetch(`${BASE}/`, { headers: cookie ? { cookie } : {} })).text()
      return marks.filter((mark) => html.includes(mark))
    }
    expect(await visitorSees()).toEqual([])
    expect(await visitorSees('site_preview=forged')).toEqual([])
    expect(await visitorSees('__prerender_bypass=guessed')).toEqual([])
    // A POST to a page is a visitor's 405, never a server action on the preview.
    expect((await fetch(`${BASE}/`, { method: 'POST', body: 'x' })).status).toBe(405)

    await page.goto(`${BASE}/preview/enable?secret=${PREVIEW_SECRET}&redirect=/`)
    const copied = (await page.context().cookies()).find((cookie) => cookie.name === 'site_preview')!
    expect(copied.httpOnly).toBe(true)
    expect(copied.expires - Date.now() / 1000).toBeGreaterThan(7.9 * 3600)
    expect(await visitorSees(`site_preview=${copied.value}`)).toEqual(marks)
    await page
      .getByRole('complementary', { name: 'Preview' })
      .getByRole('link', { name: 'Leave preview' })
      .click()
    await expect(page.getByRole('complementary', { name: 'Preview' })).toHaveCount(0)
    // A copy of the cookie, taken before leaving, opens nothing after it.
    expect(await visitorSees(`site_preview=${copied.value}`)).toEqual([])
    const elsewhere = await browser.newContext()
    await elsewhere.addCookies([copied])
    const thief = await elsewhere.newPage()
    await thief.goto(`${BASE}/`)
    await expect(thief.getByRole('complementary', { name: 'Preview' })).toHaveCount(0)
    await elsewhere.close()
  })

  test("the preview's doors, tried as an attacker would", async ({ page }) => {
    // A redirect that resolves off the site lands on the site.
    for (const redirect of ['/.//evil.example/', '/a/..//evil.example/', '/%2e//evil.example/']) {
      await page.goto(
        `${BASE}/preview/enable?secret=${PREVIEW_SECRET}&redirect=${encodeURIComponent(redirect)}`,
      )
      expect([redirect, page.url()]).toEqual([redirect, `${BASE}/`])
    }
    await expect(page.getByRole('complementary', { name: 'Preview' })).toBeVisible()

    // Crafted ids are refused, not crashed on.
    for (const id of ['drafts.', 'versions.x', 'drafts.drafts.x'])
      expect([id, (await fetch(`${BASE}/api/publish-status/${id}`)).status]).toEqual([id, 400])

    // Guessing costs: the 11th wrong secret within a minute is refused before it is checked.
    // (Last in this server's life: the lock holds this test machine's address for a minute.)
    const statuses: number[] = []
    for (let guess = 1; guess <= 11; guess++)
      statuses.push(
        (await fetch(`${BASE}/preview/enable?secret=guess-${guess}`, { redirect: 'manual' })).status,
      )
    expect(statuses).toEqual([...Array(10).fill(401), 429])
    const locked = await fetch(`${BASE}/preview/enable?secret=${PREVIEW_SECRET}`, { redirect: 'manual' })
    expect(locked.status).toBe(429)
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})

/**
 * The text of a page of this site framed by the current page, or '' when the browser
 * refused to frame it (a blocked frame shows Chromium's error page, of another origin).
 */
async function framedText(page: Page, src: string): Promise<string> {
  return page.evaluate(async (url) => {
    const frame = document.createElement('iframe')
    frame.src = url
    const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }))
    document.body.append(frame)
    await loaded
    const text = frame.contentDocument?.body?.innerText ?? ''
    frame.remove()
    return text
  }, src)
}

test.describe('the publisher killed with SIGKILL in the middle of a build', () => {
  test('no process outlives it, no unchecked build goes live, and the accepted change is live after a restart', async () => {
    test.setTimeout(400_000)
    if (!existsSync('out/.build.json') && pristine) cpSync(pristine, 'out', { recursive: true })
    const work = mkdtempSync(path.join(os.tmpdir(), 'e2e-crash-'))
    cpSync('studio/seed', path.join(work, 'seed'), { recursive: true })
    const file = path.join(work, 'seed', 'dataset.ndjson')
    // The same builds folder (and publish journal) for both lives of the publisher.
    const siteDir = path.join(work, 'site')
    const start = () =>
      serveExport(path.resolve('out'), {
        siteDir,
        timeoutMs: 200_000,
        env: { LOCAL_DATASET: file, SANITY_WEBHOOK_SECRET: SECRET, LOG_LEVEL: 'info' },
      })
    const first = await start()
    let second: ServedSite | undefined
    try {
      const documents = readDocuments(file)
      const review = documents.find((doc) => doc._type === 'review' && doc.placement === 'both')!
      const marker = `Published just before a crash, at ${new Date().toISOString()}.`
      writeDocuments(
        file,
        documents.map((doc) => (doc._id === review._id ? { ...doc, text: marker } : doc)),
      )
      expect(await sendWebhook(first.origin, SECRET, { _id: review._id, _type: 'review' })).toBe(202)
      // Mid-build: the build's process tree has started.
      await expect.poll(() => descendantsOf(first.pid).length, { timeout: 60_000 }).toBeGreaterThan(1)
      const tree = descendantsOf(first.pid)
      process.kill(first.pid, 'SIGKILL')
      const alive = (pid: number) => {
        try {
          process.kill(pid, 0)
          return true
        } catch {
          return false
        }
      }
      await expect.poll(() => tree.filter(alive), { timeout: 15_000 }).toEqual([])

      second = await start()
      await expect
        .poll(async () => (await (await fetch(`${second!.origin}/`)).text()).includes(marker), {
          timeout: 300_000,
          intervals: [1000],
        })
        .toBe(true)
      const log = second.output()
      expect(log).toMatch(/"event":"journal.resume"/)
      // What went live after the restart went through the gate first.
      const swap = log.search(/"event":"swap"/)
      expect(swap).toBeGreaterThan(0)
      expect(log.slice(0, swap)).toMatch(/"event":"gate"/)
    } finally {
      await first.stop()
      await second?.stop()
      rmSync(work, { recursive: true, force: true })
    }
  })
})

test.describe('a configured third-party booking widget (spec §2, §7)', () => {
  const BOOKING = 'https://booking.example.com'
  let bookingDir: string
  let bookingServer: ServedSite

  test.beforeAll(async () => {
    test.setTimeout(300_000) // a whole build of its own
    // A second dataset: the same seed with site settings pointing at an external widget.
    bookingDir = mkdtempSync(path.join(os.tmpdir(), 'e2e-booking-'))
    cpSync('studio/seed', path.join(bookingDir, 'seed'), { recursive: true })
    const file = path.join(bookingDir, 'seed', 'dataset.ndjson')
    const docs = readDocuments(file)
    const settings = docs.find((doc) => doc._id === 'siteSettings')!
    settings.bookingWidgetUrl = `${BOOKING}/elevate-local/free-call`
    settings.bookingScriptUrl = `${BOOKING}/embed.js`
    writeDocuments(file, docs)
    const build = spawnSync('npm', ['run', 'build'], {
      env: { ...process.env, LOCAL_DATASET: file },
      encoding: 'utf8',
    })
    expect(build.status, build.stderr).toBe(0)
    // Take the export away from out/, so a later `npm start` never serves this fixture.
    renameSync('out', path.join(bookingDir, 'out'))
    bookingServer = await serveExport(path.join(bookingDir, 'out'))
  })

  test.afterAll(async () => {
    await bookingServer?.stop()
    rmSync(bookingDir, { recursive: true, force: true })
  })

  test('/consultation embeds the widget page (titled, at least 800 px) and loads its embed script', async ({
    page,
  }) => {
    const requested: string[] = []
    await page.route(`${BOOKING}/**`, (route) => {
      requested.push(route.request().url())
      return route.request().url().endsWith('/embed.js')
        ? route.fulfill({ contentType: 'text/javascript', body: 'window.bookingEmbedLoaded = true' })
        : route.fulfill({
            contentType: 'text/html',
            body: '<!doctype html><title>Calendar</title><p>Pick a time</p>',
          })
    })
    const violations: string[] = []
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
    })
    const response = await page.goto(`${bookingServer.origin}/consultation`)
    const policy = response!.headers()['content-security-policy']!
    expect(policy).toContain(`frame-src 'self' ${BOOKING}`)
    expect(policy).toMatch(new RegExp(`script-src [^;]*${BOOKING.replace(/\./g, '\\.')}`))

    const frame = page.locator('iframe')
    await expect(frame).toHaveAttribute('src', `${BOOKING}/elevate-local/free-call`)
    expect(await frame.getAttribute('title')).toBeTruthy()
    expect((await frame.boundingBox())!.height).toBeGreaterThanOrEqual(800)
    await expect(page.frameLocator('iframe').getByText('Pick a time')).toBeVisible()
    await expect
      .poll(() =>
        page.evaluate(() => (window as unknown as { bookingEmbedLoaded?: boolean }).bookingEmbedLoaded),
      )
      .toBe(true)
    expect(requested).toEqual([`${BOOKING}/elevate-local/free-call`, `${BOOKING}/embed.js`])
    expect(violations).toEqual([])
  })
})

test.describe('a publish renders only what its change touched (lib/content/render-plan.ts)', () => {
  let work: string
  let kept: string | undefined

  test.beforeAll(() => {
    work = mkdtempSync(path.join(os.tmpdir(), 'e2e-partial-'))
    // This suite's build in out/ is what later servers start from: kept aside, put back after.
    if (existsSync('out/.build.json')) cpSync('out', (kept = path.join(work, 'kept')), { recursive: true })
  })

  test.afterAll(() => {
    rmSync('out', { recursive: true, force: true })
    if (kept) cpSync(kept, 'out', { recursive: true })
    rmSync(work, { recursive: true, force: true })
  })

  /**
   * Runs `npm run build` on a dataset, the build `previous` named as the live one.
   * @returns the build's folder (moved out of out/) and what the build printed
   */
  function build(
    name: string,
    datasetFile: string,
    previous: string | null,
    env: Record<string, string> = {},
  ) {
    const result = spawnSync('npm', ['run', 'build'], {
      env: { ...process.env, LOCAL_DATASET: datasetFile, PREVIOUS_BUILD_DIR: previous ?? '', ...env },
      encoding: 'utf8',
    })
    expect(result.status, result.stderr).toBe(0)
    const target = path.join(work, name)
    renameSync('out', target)
    // The files this build took from the live one (scripts/build.ts writes the list).
    const reused = new Set(JSON.parse(readFileSync('.cache/build/reused-files.json', 'utf8')) as string[])
    return { dir: target, log: result.stdout, reused }
  }

  /**
   * How many of two images' channel values differ: a share card rendered twice from the same
   * content can differ in a few dozen values of its antialiasing (Next's image renderer on a
   * busy machine), never in what it shows.
   */
  async function differingChannels(a: string, b: string): Promise<{ differ: number; total: number }> {
    const [left, right] = await Promise.all([a, b].map((file) => sharp(file).raw().toBuffer()))
    if (left!.length !== right!.length) return { differ: Infinity, total: left!.length }
    let differ = 0
    for (let index = 0; index < left!.length; index++) if (left![index] !== right![index]) differ++
    return { differ, total: left!.length }
  }

  /** A file's size, decompressed when it is a `.br` or `.gz` copy. */
  function unpackedSize(file: string): number {
    const bytes = readFileSync(file)
    if (file.endsWith('.br')) return brotliDecompressSync(bytes).length
    if (file.endsWith('.gz')) return gunzipSync(bytes).length
    return bytes.length
  }

  /** Every file of a build with its bytes' hash and size; the marker's id and time and the step times set aside. */
  function filesOf(dir: string): Map<string, { hash: string; size: number }> {
    const files = new Map<string, { hash: string; size: number }>()
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
      if (entry.isFile() && !['.build.json', '.build-phases.json'].includes(entry.name)) {
        const file = path.join(entry.parentPath, entry.name)
        const bytes = readFileSync(file)
        files.set(path.relative(dir, file), {
          hash: createHash('sha1').update(bytes).digest('hex'),
          size: bytes.length,
        })
      }
    return files
  }

  test('an edit, a new case study, an unpublished one and a settings change: the merged build is byte for byte a full build', async () => {
    test.setTimeout(600_000) // nine builds
    cpSync('studio/seed', path.join(work, 'seed'), { recursive: true })
    const file = path.join(work, 'seed', 'dataset.ndjson')
    const docs = readDocuments(file)
    const study = docs.find((doc) => doc._type === 'caseStudy' && !doc._id.startsWith('drafts.'))!
    const changes: [string, (documents: Doc[]) => Doc[], RegExp][] = [
      [
        'a case study edited',
        (documents) =>
          documents.map((doc) =>
            doc._id === study._id ? { ...doc, detailTitle: 'A title edited for the test' } : doc,
          ),
        /1 documents changed; .*; [1-9]\d* pages taken from the live build/,
      ],
      [
        'a new case study',
        (documents) => [
          ...documents,
          {
            ...study,
            _id: 'caseStudy-e2e-new',
            slug: { _type: 'slug', current: 'e2e-new' },
            legacyId: 'E2E New',
            order: 99,
          },
        ],
        /1 documents changed; .*; [1-9]\d* pages taken from the live build/,
      ],
      [
        'a case study unpublished',
        (documents) => documents.filter((doc) => doc._id !== study._id),
        /1 documents changed; .*; [1-9]\d* pages taken from the live build/,
      ],
      [
        // On every page: everything renders, and the plan says why.
        'site settings changed',
        (documents) =>
          documents.map((doc) =>
            doc._id === 'siteSettings' ? { ...doc, brandName: 'Elevate Local Test' } : doc,
          ),
        /rendering every page \(a read every page shares changed/,
      ],
    ]
    let live = build('base', file, null).dir
    let documents = docs
    for (const [what, change, planned] of changes) {
      documents = change(documents)
      writeDocuments(file, documents)
      const liveBefore = filesOf(live)
      const partial = build(`${what} (partial)`, file, live)
      expect(partial.log, what).toMatch(planned)
      // The pages it took share their files with the live build: it is left exactly as it was.
      expect(filesOf(live), `${what}: the live build`).toEqual(liveBefore)
      const full = build(`${what} (full)`, file, live, { FULL_RENDER: '1' })
      const [merged, whole] = [filesOf(partial.dir), filesOf(full.dir)]
      expect([...merged.keys()].sort(), what).toEqual([...whole.keys()].sort())
      for (const [name, file] of whole) {
        const other = merged.get(name)!
        // React's RSC stream numbers its rows in the order async components resolve, so a page
        // rendered by both builds may list the same rows in another order: the same size, and
        // its compressed copies (compressed from other bytes) decompress to that size.
        const payload = name.replace(/\.(br|gz)$/, '')
        const reordered =
          !partial.reused.has(name) &&
          payload.endsWith('.txt') &&
          merged.get(payload)?.hash !== whole.get(payload)?.hash
        if (reordered)
          expect(unpackedSize(path.join(partial.dir, name)), `${what}: ${name}`).toBe(
            unpackedSize(path.join(full.dir, name)),
          )
        else if (other.hash !== file.hash && /^og\/.*\.png$/.test(name) && !partial.reused.has(name)) {
          // Rendered by both builds: the same card, but for a few antialiased values (1 in 10,000).
          const { differ, total } = await differingChannels(
            path.join(partial.dir, name),
            path.join(full.dir, name),
          )
          expect(differ, `${what}: ${name}: channel values that differ, of ${total}`).toBeLessThan(
            total / 10_000,
          )
        } else expect(other.hash, `${what}: ${name}`).toBe(file.hash)
      }
      live = full.dir
    }
  })
})
