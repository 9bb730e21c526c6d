/**
 * @jest-environment node
 *
 * The preview's build (server/preview/preview-build.ts): the code version that decides when
 * `npm start` builds the preview again. The build itself runs in the e2e tests.
 */
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { codeVersion } from '@/lib/code-version'
import { markPreviewBuild, PREVIEW_DIST_DIR } from '@/server/preview/preview-build'

describe('codeVersion', () => {
  let root: string
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    writeFileSync(path.join(root, file), text)
  }
  const version = () => codeVersion(root)

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'preview-code-version-'))
    write('app/(site)/page.tsx', 'export default function Home() { return null }\n')
    write('components/home/Hero.tsx', 'export const Hero = () => null\n')
    write('lib/text.ts', 'export const x = 1\n')
    write('studio/schemaTypes/review.ts', 'export default {}\n')
    write('studio/seed/dataset.ndjson', '{"_id":"review-a","_type":"review"}\n')
    write('public/booking/index.html', '<p>Booking</p>\n')
    write('public/media/abc-10x10.svg', '<svg/>\n')
    write('next.config.mjs', 'export default {}\n')
    write('package.json', '{"name":"site"}\n')
  })
  afterEach(() => rmSync(root, { recursive: true, force: true }))

  test('the same code gives the same version, wherever the repository is', async () => {
    const first = await version()
    expect(first).toMatch(/^[0-9a-f]{64}$/)
    expect(await version()).toBe(first)
    const moved = `${root}-moved`
    renameSync(root, moved)
    root = moved
    expect(await version()).toBe(first)
  })

  test.each([
    ['a changed component', () => write('components/home/Hero.tsx', 'export const Hero = () => 1\n')],
    ['a changed next.config.mjs', () => write('next.config.mjs', 'export default { trailingSlash: true }\n')],
    ['a new page', () => write('app/(site)/sites/page.tsx', 'export default () => null\n')],
    ['a changed schema type', () => write('studio/schemaTypes/review.ts', 'export default { name: "r" }\n')],
    ['a new file in public/', () => write('public/robots.txt', 'User-agent: *\n')],
    ['a new tsconfig.json', () => write('tsconfig.json', '{}\n')],
    [
      'a renamed file, same bytes',
      () => renameSync(path.join(root, 'lib/text.ts'), path.join(root, 'lib/texts.ts')),
    ],
  ])('%s gives another version', async (_change, change) => {
    const before = await version()
    change()
    expect(await version()).not.toBe(before)
  })

  test('a changed file put back gives the version back', async () => {
    const before = await version()
    write('components/home/Hero.tsx', 'export const Hero = () => 1\n')
    expect(await version()).not.toBe(before)
    write('components/home/Hero.tsx', 'export const Hero = () => null\n')
    expect(await version()).toBe(before)
  })

  test.each([
    [
      'a changed seed dataset',
      () => write('studio/seed/dataset.ndjson', '{"_id":"review-b","_type":"review"}\n'),
    ],
    ['a new image in public/media/', () => write('public/media/def-20x20.svg', '<svg/>\n')],
    [
      "the Studio's own build, packages and cache",
      () => {
        write('studio/dist/index.html', 'x')
        write('studio/node_modules/x/index.js', 'x')
        write('studio/.sanity/runtime/app.js', 'x')
      },
    ],
    ['a file outside the code (a test, a doc)', () => write('docs/content.md', '# Content\n')],
  ])('%s is content or output, not code: the same version', async (_change, change) => {
    const before = await version()
    change()
    expect(await version()).toBe(before)
  })

  test('settings are not part of the version: the preview server reads them on every request', async () => {
    const before = await version()
    const env = { ...process.env }
    try {
      Object.assign(process.env, {
        SANITY_PROJECT_ID: 'abc123',
        SANITY_STUDIO_PROJECT_ID: 'abc123',
        SANITY_DATASET: 'staging',
        SANITY_READ_TOKEN: 'secret',
      })
      expect(await version()).toBe(before)
    } finally {
      process.env = env
    }
  })

  test('markPreviewBuild records the version in the preview build', async () => {
    mkdirSync(path.join(root, PREVIEW_DIST_DIR))
    const current = await version()
    await markPreviewBuild(root, current)
    expect(readFileSync(path.join(root, PREVIEW_DIST_DIR, 'code-version.txt'), 'utf8').trim()).toBe(current)
    // The build's own output is not code.
    expect(await version()).toBe(current)
  })
})
