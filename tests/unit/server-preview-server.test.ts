/**
 * @jest-environment node
 *
 * The pure parts of editors' preview server (server/preview-server.ts): the draft-mode
 * cookie only it can set, a preview page's Content-Security-Policy, and the code version
 * that decides when `npm start` builds the preview server again. Next's server itself is
 * not started here (the e2e tests run it).
 */
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {
  markPreviewBuild,
  PREVIEW_DIST_DIR,
  previewCodeVersion,
  previewContentSecurityPolicy,
  withDraftModeCookie,
} from '@/server/preview-server'

const MODE_ID = 'a'.repeat(32)

describe('withDraftModeCookie', () => {
  /** The cookies of a Cookie header, as [name, value] pairs in order. */
  const pairs = (header: string) =>
    header.split('; ').map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)])

  test("a request without cookies gets Next's draft-mode cookie only", () => {
    expect(withDraftModeCookie(undefined, MODE_ID)).toBe(`__prerender_bypass=${MODE_ID}`)
    expect(withDraftModeCookie('', MODE_ID)).toBe(`__prerender_bypass=${MODE_ID}`)
  })

  test("the request's own cookies are kept, in order, with the real draft-mode cookie after them", () => {
    expect(withDraftModeCookie('site_preview=s%3Aabc.sig; sanity-preview-perspective=drafts', MODE_ID)).toBe(
      `site_preview=s%3Aabc.sig; sanity-preview-perspective=drafts; __prerender_bypass=${MODE_ID}`,
    )
  })

  test("a visitor's own __prerender_bypass never reaches Next, however it is written", () => {
    const header = withDraftModeCookie(
      '__prerender_bypass=forged;a=1;  __prerender_bypass=again ;; b=2; __prerender_bypass=',
      MODE_ID,
    )
    expect(pairs(header)).toEqual([
      ['a', '1'],
      ['b', '2'],
      ['__prerender_bypass', MODE_ID],
    ])
  })

  test('a cookie whose name only starts like it is not it, and is kept', () => {
    expect(pairs(withDraftModeCookie('__prerender_bypass_x=1', MODE_ID))).toEqual([
      ['__prerender_bypass_x', '1'],
      ['__prerender_bypass', MODE_ID],
    ])
  })
})

describe('previewContentSecurityPolicy', () => {
  const STUDIOS = ['https://agency.sanity.studio', 'https://studio.example.com']
  /** A policy's directives by name. */
  const directives = (policy: string) =>
    new Map(
      policy.split(';').map((directive) => {
        const [name, ...values] = directive.trim().split(/\s+/)
        return [name!, values]
      }),
    )

  test("scripts run only with this response's nonce, or when a script that has it loads them", () => {
    const policy = directives(previewContentSecurityPolicy('bm9uY2U+/x==', STUDIOS))
    expect(policy.get('script-src')).toEqual(["'nonce-bm9uY2U+/x=='", "'strict-dynamic'"])
    expect(policy.get('default-src')).toEqual(["'self'"])
    expect(policy.get('object-src')).toEqual(["'none'"])
    expect(policy.get('base-uri')).toEqual(["'none'"])
    for (const [name, values] of policy)
      if (name !== 'style-src')
        expect([name, values]).toEqual([name, expect.not.arrayContaining(["'unsafe-inline'"])])
    expect(previewContentSecurityPolicy('bm9uY2U+/x==', STUDIOS)).not.toMatch(/unsafe-eval/)
  })

  test('a fresh nonce, a fresh policy', () => {
    expect(previewContentSecurityPolicy('b25l', [])).not.toBe(previewContentSecurityPolicy('dHdv', []))
    expect(previewContentSecurityPolicy('dHdv', [])).toContain("'nonce-dHdv'")
  })

  test('this site and the Studio origins may frame a preview (Presentation), nobody else', () => {
    expect(directives(previewContentSecurityPolicy('n', STUDIOS)).get('frame-ancestors')).toEqual([
      "'self'",
      ...STUDIOS,
    ])
    expect(directives(previewContentSecurityPolicy('n', [])).get('frame-ancestors')).toEqual(["'self'"])
  })
})

describe('previewCodeVersion', () => {
  let root: string
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    writeFileSync(path.join(root, file), text)
  }
  const version = () => previewCodeVersion(root)

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
