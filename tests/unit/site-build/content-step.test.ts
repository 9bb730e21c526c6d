/**
 * @jest-environment node
 *
 * The real build fails on a bad link: `npm run build` (scripts/build.ts) starts with
 * the content step (site-build/content-step.ts), which validates all content
 * (lib/content/content-check.ts) before Next runs. Run here as npm runs it (the project's
 * Node 24, LOCAL_DATASET pointing at an edited copy of the seed), in a temporary
 * working folder so nothing of this checkout (public/, .next) is touched: the bad
 * cases run the build itself, which stops before Next; the good case runs
 * `npm run dev`'s content step (scripts/check-content.ts), the same step without Next.
 */
import { spawnSync } from 'node:child_process'
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { StoredDocument } from '@/lib/content/source'
import { NODE } from '../helpers/publisherFixture'
import { SEED_FILE, seedDocuments, seedWith } from '../helpers/dataset'

/** Runs a script (default the build) on `datasetFile` in a fresh folder. */
function runOnDataset(datasetFile: string, script = 'scripts/build.ts') {
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'build-check-'))
  const run = spawnSync(NODE, [path.resolve(script)], {
    cwd,
    env: { ...process.env, LOCAL_DATASET: datasetFile, SANITY_PROJECT_ID: '' },
    encoding: 'utf8',
    timeout: 60_000,
  })
  return { ...run, cwd }
}

const firstOf = (type: string) => seedDocuments().find((doc) => doc._type === type)!

test('npm run build is scripts/build.ts', () => {
  const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }
  expect(scripts.build).toMatch(/node scripts\/build\.ts$/)
})

test('the seed passes (so a failure below is the bad field, nothing else)', () => {
  const run = runOnDataset(SEED_FILE, 'scripts/check-content.ts')
  expect([run.status, run.stderr]).toEqual([0, ''])
  expect(readdirSync(path.join(run.cwd, 'public', 'media')).length).toBeGreaterThan(0)
}, 60_000)

const study = firstOf('caseStudy')
const cases: { what: string; id: string; field: string; edit: (doc: StoredDocument) => StoredDocument }[] = [
  {
    what: 'a javascript: booking widget',
    id: 'siteSettings',
    field: 'bookingWidgetUrl',
    edit: (doc) => ({ ...doc, bookingWidgetUrl: ' JavaScript:alert(1)' }),
  },
  {
    what: 'a booking script from another site as a "path"',
    id: 'siteSettings',
    field: 'bookingScriptUrl',
    edit: (doc) => ({ ...doc, bookingScriptUrl: '/\\evil.example/x.js' }),
  },
  {
    what: 'a protocol-relative contact webhook',
    id: 'siteSettings',
    field: 'contactWebhookUrl',
    edit: (doc) => ({ ...doc, contactWebhookUrl: '//evil.example/collect' }),
  },
  {
    what: 'an http site URL',
    id: 'siteSettings',
    field: 'siteUrl',
    edit: (doc) => ({ ...doc, siteUrl: 'http://www.example.co.uk' }),
  },
  {
    what: 'a data: portfolio address',
    id: firstOf('portfolioSite')._id,
    field: 'url',
    edit: (doc) => ({ ...doc, url: 'data:text/html,<script>alert(1)</script>' }),
  },
  {
    what: 'a javascript: link in case study text',
    id: study._id,
    // Sanity's path format: the block and the link by their keys.
    field: `outcome[_key=="${(study.outcome as { _key: string }[])[0]!._key}"].markDefs[_key=="x"].href`,
    edit: (doc) => {
      const blocks = structuredClone(doc.outcome) as { markDefs: unknown[] }[]
      blocks[0]!.markDefs = [{ _type: 'link', _key: 'x', href: 'javascript:alert(1)' }]
      return { ...doc, outcome: blocks }
    },
  },
]

test.each(cases.map((item) => [item.what, item] as const))(
  '%s fails the build with exit code 1, naming the document and field, before writing anything',
  (_, { id, field, edit }) => {
    const run = runOnDataset(seedWith(id, edit).file)
    expect(run.status).toBe(1)
    expect(run.stderr).toContain(`Invalid content: document "${id}", field "${field}"`)
    expect(existsSync(path.join(run.cwd, 'public'))).toBe(false)
  },
  60_000,
)

describe("the build's own rules on asset files (what the schema cannot say)", () => {
  /** A copy of the seed with its images folder, one image changed by `change`. */
  function seedWithImages(change: (imagesDir: string, file: string) => void) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'seed-images-'))
    cpSync(path.dirname(SEED_FILE), dir, { recursive: true })
    const asset = firstOf('sanity.imageAsset') as StoredDocument & { originalFilename: string }
    change(path.join(dir, 'images'), asset.originalFilename)
    return { file: path.join(dir, path.basename(SEED_FILE)), asset }
  }

  test('a missing image file fails the build naming the asset and field', () => {
    const { file, asset } = seedWithImages((images, name) => rmSync(path.join(images, name)))
    const run = runOnDataset(file)
    expect(run.status).toBe(1)
    expect(run.stderr).toContain(
      `Invalid content: document "${asset._id}", field "originalFilename": no file at`,
    )
  }, 60_000)

  test('an image file changed since the dataset was made fails the build naming the asset and field', () => {
    const { file, asset } = seedWithImages((images, name) => appendFileSync(path.join(images, name), '\n'))
    const run = runOnDataset(file)
    expect(run.status).toBe(1)
    expect(run.stderr).toContain(`Invalid content: document "${asset._id}", field "sha1hash":`)
    expect(run.stderr).toContain('regenerate the dataset')
  }, 60_000)
})
