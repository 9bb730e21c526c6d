/**
 * Editors' preview with the Content Lake: the publisher reads a Sanity project (here the
 * local stand-in of Sanity's HTTP API the unit tests use, tests/unit/helpers/sanityStandIn.ts,
 * so it runs offline), and a draft written through the API, as the Studio writes one, is
 * timed until the preview's next answer shows it. Each render asks the API again (drafts
 * perspective, read token, stega on): nothing is cached between requests.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { DEFAULT_API_VERSION, DEFAULT_LOCAL_DATASET, parseNdjson } from '../../lib/content/source.ts'
import { PREVIEW_ENABLE_PATH } from '../../lib/publisher-routes.ts'
import { startSanityStandIn } from '../../tests/unit/helpers/sanityStandIn.ts'
import { serveExport } from '../audit/serve.ts'
import { readHealth } from '../publisher-client.ts'
import { keepExport, SECRET, timingWhole, type Timing } from './publish.ts'

const PREVIEW_SECRET = 'bench-preview-secret-0123456789abcdef012345'
const TOKEN = 'bench-read-and-write-token'

/**
 * @returns ms, a draft written through the API -> the first preview answer showing it
 *   (median of `runs`), and the first preview page's ms
 */
export async function measureContentLakePreview(
  runs = 3,
): Promise<{ draftToVisible: Timing; firstPage: number }> {
  const seed = parseNdjson(readFileSync(DEFAULT_LOCAL_DATASET, 'utf8'), DEFAULT_LOCAL_DATASET)
  const review = seed.find((doc) => doc._type === 'review' && doc.placement === 'both')
  if (!review) throw new Error(`${DEFAULT_LOCAL_DATASET} has no review shown on the home page`)
  const api = await startSanityStandIn(seed, { token: TOKEN })
  const kept = keepExport()
  kept.restore()
  const site = await serveExport(path.resolve('out'), {
    timeoutMs: 300_000,
    env: {
      SANITY_PROJECT_ID: 'benchproject',
      SANITY_DATASET: 'production',
      SANITY_API_HOST: api.url,
      SANITY_READ_TOKEN: TOKEN,
      SANITY_WEBHOOK_SECRET: SECRET,
      SANITY_PREVIEW_SECRET: PREVIEW_SECRET,
    },
  })
  const samples: number[] = []
  let firstPage = 0
  try {
    for (;;) {
      const state = (await readHealth(site.origin, SECRET)).preview
      if (state === 'ready') break
      if (typeof state === 'object') throw new Error(`the preview server failed: ${state.failed}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const enable = await fetch(`${site.origin}${PREVIEW_ENABLE_PATH}?secret=${PREVIEW_SECRET}&redirect=/`, {
      redirect: 'manual',
    })
    const cookie = enable.headers.get('set-cookie')?.split(';')[0] ?? ''
    const first = performance.now()
    await (await fetch(`${site.origin}/`, { headers: { cookie } })).text()
    firstPage = Math.round(performance.now() - first)
    for (let run = 0; run < runs; run++) {
      const marker = `bench-lake-draft-${Date.now()}-${run}`
      const started = performance.now()
      const written = await fetch(`${api.url}/v${DEFAULT_API_VERSION}/data/mutate/production`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({
          mutations: [{ createOrReplace: { ...review, _id: `drafts.${review._id}`, text: marker } }],
        }),
      })
      if (!written.ok) throw new Error(`the stand-in refused the draft: ${written.status}`)
      for (;;) {
        const html = await (await fetch(`${site.origin}/`, { headers: { cookie } })).text()
        if (html.includes(marker)) break
        if (performance.now() - started > 60_000) throw new Error('the draft never showed in the preview')
      }
      samples.push(performance.now() - started)
    }
  } finally {
    await site.stop()
    await api.close()
    kept.restore()
    kept.drop()
  }
  return { draftToVisible: timingWhole(samples), firstPage }
}
