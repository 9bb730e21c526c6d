/**
 * The media door: an SVG with a script, published by a real rebuild, must be served at its three addresses with a
 * policy that runs nothing, nosniff, no script in its bytes, and run nothing when Chromium opens it (or be refused).
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { chromium } from '@playwright/test'
import { MEDIA_URL_DIR, mediaFileName, PREVIEW_MEDIA_URL_DIR } from '../../lib/content/image.ts'
import type { StoredDocument } from '../../lib/content/source.ts'
import { readHealth, sendWebhook, waitUntilSettled } from '../publisher-client.ts'
import { CHROMIUM_ARGS, chromiumPath } from './axe.ts'
import { sourcesOf, type DoorsContext } from './doors-kit.ts'

/** Written by the drawing's script and its handler onto its root, if either runs. */
const RAN = { script: 'data-audit-script', onload: 'data-audit-onload' }

/** A drawing that marks its root when its script or its `onload` handler runs. */
const HOSTILE_SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800" viewBox="0 0 1200 800" ` +
  `onload="document.documentElement.setAttribute('${RAN.onload}','ran')">` +
  `<script>document.documentElement.setAttribute('${RAN.script}','ran')</script>` +
  `<rect width="1200" height="800" fill="#345"/></svg>\n`

/**
 * Makes the dataset folder's `images/` (the seed's files, linked, and the drawing) and the documents that publish
 * it: an asset named by the drawing's sha1, as Sanity names uploads, and the seed's first portfolio site showing it.
 */
export function hostileImage(datasetDir: string, seedImages: string, seed: StoredDocument[]) {
  const images = path.join(datasetDir, 'images')
  mkdirSync(images)
  for (const name of readdirSync(seedImages))
    symlinkSync(path.join(seedImages, name), path.join(images, name))
  const bytes = Buffer.from(HOSTILE_SVG)
  const sha1 = createHash('sha1').update(bytes).digest('hex')
  const originalFilename = 'audit-hostile.svg'
  writeFileSync(path.join(images, originalFilename), bytes)
  const assetId = `image-${sha1}-1200x800-svg`
  const template = seed.find((doc) => doc._type === 'sanity.imageAsset' && doc.extension === 'svg')
  const site = seed.find((doc) => doc._type === 'portfolioSite')
  if (!template || !site) throw new Error('audit:doors: the seed has no SVG asset or no portfolio site')
  const asset: StoredDocument = {
    ...template,
    _id: assetId,
    assetId: sha1,
    sha1hash: sha1,
    originalFilename,
    size: bytes.length,
    path: `images/local0/production/${sha1}-1200x800.svg`,
    url: `https://cdn.sanity.io/images/local0/production/${sha1}-1200x800.svg`,
  }
  const image = site.image as Record<string, unknown>
  const shown: StoredDocument = {
    ...site,
    title: 'Audit Hostile Drawing',
    image: { ...image, asset: { _type: 'reference', _ref: assetId } },
  }
  return { assetId, fileName: mediaFileName(assetId), asset, site: shown }
}
type HostileImage = ReturnType<typeof hostileImage>

/** Publishes the portfolio site as Sanity's webhook does; once the publisher has settled, whether a new build went live, or its last error. */
export async function publishHostileImage(
  context: Pick<DoorsContext, 'origin' | 'webhookSecret'>,
  hostile: HostileImage,
): Promise<{ live: boolean; error?: string }> {
  const { origin, webhookSecret } = context
  const before = await readHealth(origin, webhookSecret)
  const status = await sendWebhook(origin, webhookSecret, { _id: hostile.site._id, _type: 'portfolioSite' })
  if (status !== 202) return { live: false, error: `the webhook answered ${status}` }
  const after = await waitUntilSettled(origin, webhookSecret, 250)
  if (after.live && after.live.id !== before.live?.id) return { live: true }
  return { live: false, error: after.lastError?.message ?? 'no build went live and none failed' }
}

/** Tries the drawing at its three addresses (see the module comment), after `publishHostileImage`. */
export async function mediaAttempts(
  context: DoorsContext,
  hostile: HostileImage,
  published: { live: boolean; error?: string },
): Promise<void> {
  const { origin, cookie, attempt } = context
  if (!published.live) {
    const refused = published.error?.includes(hostile.assetId) ?? false
    attempt(
      'media',
      'a drawing with a script, published',
      !refused,
      refused ? 'the publish refused it' : `nothing went live: ${published.error}`,
    )
    return
  }
  const places = [
    { where: 'live', url: `${MEDIA_URL_DIR}/${hostile.fileName}`, cookie: '' },
    { where: 'preview', url: `${MEDIA_URL_DIR}/${hostile.fileName}`, cookie },
    { where: 'preview', url: `${PREVIEW_MEDIA_URL_DIR}/${hostile.assetId}`, cookie },
  ]
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS })
  try {
    for (const place of places) {
      const what = `${place.where} ${place.url.replace(/[0-9a-f]{40}/, '<sha1>')}`
      const answer = await fetch(`${origin}${place.url}`, {
        headers: place.cookie ? { cookie: place.cookie } : {},
      })
      const bytes = await answer.text()
      if (answer.status !== 200) {
        // A published drawing is served where its pages point: any other answer tried nothing.
        attempt('media', `${what}: served`, true, `answered ${answer.status}: nothing was tried`)
        continue
      }
      const policy = answer.headers.get('content-security-policy') ?? ''
      attempt(
        'media',
        `${what}: a policy that runs nothing (default-src 'none', sandbox)`,
        sourcesOf(policy, 'default-src').join(' ') !== `'none'` || !/(^|;)\s*sandbox(\s*;|\s*$)/.test(policy),
        policy || 'no Content-Security-Policy',
      )
      attempt(
        'media',
        `${what}: X-Content-Type-Options: nosniff`,
        answer.headers.get('x-content-type-options') !== 'nosniff',
      )
      attempt('media', `${what}: its bytes hold no script`, /<script|onload/i.test(bytes))
      const page = await browser.newPage()
      if (place.cookie) {
        const [name = '', value = ''] = place.cookie.split(/=(.*)/)
        await page.context().addCookies([{ name, value, url: origin }])
      }
      await page.goto(`${origin}${place.url}`)
      await page.waitForTimeout(300)
      const root = page.locator(':root')
      const ran = [
        (await root.getAttribute(RAN.script)) && 'its script',
        (await root.getAttribute(RAN.onload)) && 'its onload handler',
      ].filter(Boolean)
      attempt(
        'media',
        `${what}: opened in Chromium, nothing runs`,
        ran.length > 0,
        ran.join(' and ') || undefined,
      )
      await page.close()
    }
  } finally {
    await browser.close()
  }
}
