/**
 * @jest-environment node
 *
 * Which content a render reads (lib/content/page-source.ts): the export and any render
 * outside draft mode read published documents; an editor's request in draft mode reads
 * the perspective Presentation's cookie names (drafts by default, anything invalid as
 * drafts), and with the Content Lake its strings come stega-encoded.
 */
const request = { draftMode: false, cookies: new Map<string, string>() }
jest.mock('next/headers', () => ({
  draftMode: async () => ({ isEnabled: request.draftMode }),
  cookies: async () => ({
    get: (name: string) =>
      request.cookies.has(name) ? { name, value: request.cookies.get(name) } : undefined,
  }),
}))

import { pageSource } from '@/lib/content/page-source'

const env = { ...process.env }
afterEach(() => {
  process.env = { ...env }
  request.draftMode = false
  request.cookies.clear()
})

test('outside draft mode (the export, prerendering): published, whatever the cookie says', async () => {
  request.cookies.set('sanity-preview-perspective', 'drafts')
  expect(await pageSource()).toMatchObject({ kind: 'local', perspective: 'published' })
})

test("in draft mode: drafts, or the perspective Presentation's switcher chose", async () => {
  request.draftMode = true
  expect((await pageSource()).perspective).toBe('drafts')
  for (const [cookie, perspective] of [
    ['published', 'published'],
    ['drafts', 'drafts'],
    ['rSpring,drafts', ['rSpring', 'drafts']],
    ['rSpring', ['rSpring', 'drafts']],
    // Anything else is an editor's stale or forged cookie: drafts, never `raw`.
    ['raw', 'drafts'],
    ['rSpring,raw', 'drafts'],
    ['../etc', 'drafts'],
    ['', 'drafts'],
  ] as const) {
    request.cookies.set('sanity-preview-perspective', cookie)
    expect([cookie, (await pageSource()).perspective]).toEqual([cookie, perspective])
  }
})

test("in draft mode the source is marked an editor's preview, even with the published perspective", async () => {
  expect((await pageSource()).preview).toBeUndefined()
  request.draftMode = true
  request.cookies.set('sanity-preview-perspective', 'published')
  expect(await pageSource()).toMatchObject({ perspective: 'published', preview: true })
})

test('stega only in draft mode, from either source, linking to the Studio', async () => {
  process.env.SANITY_PROJECT_ID = 'abc123'
  expect((await pageSource()).stega).toBeUndefined()
  request.draftMode = true
  expect((await pageSource()).stega).toEqual({ studioUrl: '/studio' })
  process.env.SANITY_STUDIO_URL = 'https://agency.sanity.studio'
  expect((await pageSource()).stega).toEqual({ studioUrl: 'https://agency.sanity.studio' })
  // The local dataset too: its results get a source map computed here.
  delete process.env.SANITY_PROJECT_ID
  expect(await pageSource()).toMatchObject({
    kind: 'local',
    stega: { studioUrl: 'https://agency.sanity.studio' },
  })
  request.draftMode = false
  expect((await pageSource()).stega).toBeUndefined()
})
