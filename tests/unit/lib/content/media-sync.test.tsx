/**
 * @jest-environment node
 *
 * Two case studies that use the same drawing, both in the first row of /case-studies:
 * each inlined copy gets ids of its own, so the page is valid HTML (the W3C Nu checker,
 * which the publish gate runs) and each `url(#id)` points inside its own copy. Built the
 * way the export builds the page: the seed dataset (with the second case study given the
 * first one's image), its images synced, the cards inlined, the grid rendered.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { renderToStaticMarkup } from 'react-dom/server'
import { CaseStudyCard } from '@/components/case-studies/CaseStudyCard'
import { CardGridPage } from '@/components/ui/CardGridPage'
import { INLINED_CARDS } from '@/components/ui/ContentImage'
import { getCaseStudyCards, getMediaAssets, inlineFirstImages } from '@/lib/content'
import { syncMedia } from '@/lib/content/media-sync'
import { parseNdjson, type ContentSource } from '@/lib/content/source'
import { checkHtml } from '@/server/publishing/nu-html-checker'
import { SEED_FILE } from '../../helpers/dataset'

let dir: string
let source: ContentSource

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'shared-images-'))
  const documents = parseNdjson(readFileSync(SEED_FILE, 'utf8'))
  const [first, second] = documents.filter((doc) => doc._type === 'caseStudy')
  second!.image = first!.image
  const file = path.join(dir, 'dataset.ndjson')
  writeFileSync(file, documents.map((doc) => JSON.stringify(doc)).join('\n'))
  // The dataset's images are files beside it, as in the seed.
  const { symlinkSync } = await import('node:fs')
  symlinkSync(path.join(path.dirname(SEED_FILE), 'images'), path.join(dir, 'images'), 'dir')
  source = { kind: 'local', file }
  await syncMedia(await getMediaAssets(source), source, path.join(dir, 'public'), path.join(dir, 'cache'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('the same drawing twice in the first row: ids unique per use, and the page passes the Nu checker', async () => {
  const cards = await getCaseStudyCards(source)
  expect(cards[0]!.image.src).toBe(cards[1]!.image.src)
  const inlined = await inlineFirstImages(cards, INLINED_CARDS, path.join(dir, 'public'))
  expect(inlined[0]!.image.inlineSvg && inlined[1]!.image.inlineSvg).toBeTruthy()

  const grid = renderToStaticMarkup(
    <CardGridPage
      eyebrow="Results"
      title="Case Studies"
      intro="Real problems."
      columns="md:grid-cols-2 lg:grid-cols-3"
      items={inlined}
      renderCard={(study, priority) => <CaseStudyCard study={study} headingLevel="h2" priority={priority} />}
    />,
  )
  const ids = [...grid.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1])
  expect(ids.length).toBeGreaterThan(2)
  expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([])
  // Every reference inside a drawing points at an id that exists.
  for (const [, target] of grid.matchAll(/url\(#([^)]+)\)|href="#([^"]+)"/g))
    if (target) expect(ids).toContain(target)

  writeFileSync(
    path.join(dir, 'page.html'),
    `<!DOCTYPE html><html lang="en-GB"><head><title>Case Studies</title></head><body><main>${grid}</main></body></html>`,
  )
  expect(await checkHtml(dir, ['page.html'])).toEqual([])
}, 90_000)
