/**
 * What the Studio's Preview tool shows before it opens a preview
 * (studio/previewUnavailable.tsx), for every answer the publisher, or its absence, gives.
 */
import { ThemeProvider } from '@sanity/ui'
import { buildTheme } from '@sanity/ui/theme'
import { render, screen } from '@testing-library/react'
import type { ReactNode } from 'react'
import type { Tool } from 'sanity'
import { checkPublisher, withPublisherCheck } from '@/studio/previewUnavailable'

const theme = buildTheme()
const inTheme = (node: ReactNode) => render(<ThemeProvider theme={theme}>{node}</ThemeProvider>)

/** A publisher's (or a static host's) answer to `fetch`. */
const reply = (status: number, body: unknown, type = 'application/json') =>
  ({
    ok: status < 400,
    status,
    headers: new Headers({ 'content-type': type }),
    json: async () => body,
  }) as Response

describe('asking the publisher', () => {
  afterEach(() => jest.restoreAllMocks())

  test.each([
    ['preview on', reply(200, { preview: true }), { state: 'ready' }],
    ['preview off', reply(200, { preview: false }), { kind: 'preview-off' }],
    ['a CDN: the 404 page', reply(404, null, 'text/html'), { kind: 'not-served' }],
    ['a CDN: index.html for any path', reply(200, null, 'text/html'), { kind: 'not-served' }],
    ['an origin the publisher refuses', reply(403, { error: 'origin not allowed' }), { kind: 'unreachable' }],
  ])('%s', async (_case, response, expected) => {
    global.fetch = jest.fn().mockResolvedValue(response)
    const check = await checkPublisher('https://site.example/')
    expect(global.fetch).toHaveBeenCalledWith('https://site.example/api/publisher', { credentials: 'omit' })
    expect('problem' in check ? check.problem : check).toMatchObject(expected)
  })

  test('no answer at all', async () => {
    global.fetch = jest.fn().mockRejectedValue(new TypeError('Failed to fetch'))
    const check = await checkPublisher('https://site.example')
    expect(check).toEqual({
      state: 'problem',
      problem: { kind: 'unreachable', origin: 'https://site.example', error: 'Failed to fetch' },
    })
  })
})

describe('the tool', () => {
  const Inner = () => <p>the Presentation tool</p>
  const tool = { name: 'preview' } as Tool

  test('opens the preview once the publisher says it serves one', async () => {
    global.fetch = jest.fn().mockResolvedValue(reply(200, { preview: true }))
    const Screen = withPublisherCheck(Inner, '')
    inTheme(<Screen tool={tool} />)
    expect(await screen.findByText('the Presentation tool')).toBeInTheDocument()
    expect(global.fetch).toHaveBeenCalledWith('/api/publisher', { credentials: 'omit' })
  })

  test('on a CDN it says preview needs the publisher, and never opens the frame', async () => {
    global.fetch = jest
      .fn()
      .mockResolvedValue({ ok: false, status: 404, headers: new Headers(), json: async () => null })
    const Screen = withPublisherCheck(Inner, '')
    inTheme(<Screen tool={tool} />)
    expect(await screen.findByRole('heading', { name: 'Preview needs the publisher' })).toBeInTheDocument()
    expect(screen.getByText(/is served without its publisher/)).toBeInTheDocument()
    expect(screen.queryByText('the Presentation tool')).toBeNull()
  })

  test('with preview off it names the setting', async () => {
    global.fetch = jest.fn().mockResolvedValue(reply(200, { preview: false }))
    const Screen = withPublisherCheck(Inner, 'https://site.example')
    inTheme(<Screen tool={tool} />)
    expect(
      await screen.findByRole('heading', { name: 'Preview is off on the publisher' }),
    ).toBeInTheDocument()
    expect(screen.getByText(/^SANITY_PREVIEW_SECRET=/)).toBeInTheDocument()
  })
})
