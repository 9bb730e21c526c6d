/**
 * The Studio's publish-state badge (studio/publishStatus.ts), rendered as Sanity renders a
 * document badge (the component is called with the document's props and returns what
 * the badge shows), for every state the publisher's endpoint returns.
 */
import { render, screen, waitFor } from '@testing-library/react'
import type { DocumentBadgeProps } from 'sanity'
import { POLL_MS, publishStatusBadge, type PublishState } from '@/studio/publishStatus'
import type { EditorProof } from '@/studio/publisherProof'

// The badge takes its proof from the hook it is given; the Studio's own hooks are not needed.
jest.mock('sanity', () => ({}))

/** The editor's proof, as the Studio would make it (publisherProof.ts). */
const proof: EditorProof & { forget: jest.Mock } = {
  token: async () => 'editor-secret',
  forget: jest.fn(),
}
const Badge = publishStatusBadge('https://site.example/', () => proof)

/** Shows the badge's description the way a test can read it. */
function Probe(props: DocumentBadgeProps) {
  const badge = Badge(props)
  return badge ? (
    <span data-testid="badge" data-color={badge.color} title={badge.title}>
      {badge.label}
    </span>
  ) : (
    <span data-testid="none" />
  )
}

const props = {
  id: 'caseStudy-x',
  type: 'caseStudy',
  draft: null,
  published: { _rev: 'r1' },
} as unknown as DocumentBadgeProps

function answer(...states: (PublishState | number)[]) {
  const fetchMock = jest.fn()
  for (const state of states)
    fetchMock.mockResolvedValueOnce(
      typeof state === 'number'
        ? { ok: false, status: state, json: async () => ({}) }
        : { ok: true, status: 200, json: async () => state },
    )
  global.fetch = fetchMock as unknown as typeof fetch
  return fetchMock
}

const hhmm = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' }).format(new Date(iso))

test("asks the publisher for this document with the editor's proof, without cookies", async () => {
  const fetchMock = answer({ state: 'unknown' })
  render(<Probe {...props} />)
  await waitFor(() => expect(fetchMock).toHaveBeenCalled())
  expect(fetchMock).toHaveBeenCalledWith('https://site.example/api/publish-status/caseStudy-x', {
    credentials: 'omit',
    headers: { Authorization: 'Bearer editor-secret' },
  })
})

test('the Studio embedded in the site sends its own cookies too (an open preview session is a proof)', async () => {
  const Embedded = publishStatusBadge('', () => proof)
  const fetchMock = answer({ state: 'unknown' })
  function EmbeddedProbe(badgeProps: DocumentBadgeProps) {
    return <span data-testid="label">{Embedded(badgeProps)?.label ?? 'none'}</span>
  }
  render(<EmbeddedProbe {...props} />)
  await waitFor(() => expect(fetchMock).toHaveBeenCalled())
  expect(fetchMock.mock.calls[0]).toEqual([
    '/api/publish-status/caseStudy-x',
    { credentials: 'same-origin', headers: { Authorization: 'Bearer editor-secret' } },
  ])
})

test('a refused proof is forgotten and the state asked without it', async () => {
  proof.forget.mockClear()
  const since = '2026-11-26T14:05:00.000Z'
  const fetchMock = answer(401, { state: 'failed', at: since })
  render(<Probe {...props} />)
  const badge = await screen.findByTestId('badge')
  expect(proof.forget).toHaveBeenCalledTimes(1)
  expect(fetchMock.mock.calls[1]).toEqual([
    'https://site.example/api/publish-status/caseStudy-x',
    { credentials: 'omit' },
  ])
  expect(badge).toHaveTextContent('Not live')
  expect(badge.getAttribute('title')).toMatch(/did not say why to this Studio/)
})

test('live: "Live since HH:MM", the build id in the tooltip', async () => {
  const since = '2026-11-26T14:05:00.000Z'
  answer({ state: 'live', since, buildId: '20261126-140500-000-abcd' })
  render(<Probe {...props} />)
  const badge = await screen.findByTestId('badge')
  expect(badge).toHaveTextContent(`Live since ${hhmm(since)}`)
  expect(badge).toHaveAttribute('title', 'Published on the site in build 20261126-140500-000-abcd')
  expect(badge).toHaveAttribute('data-color', 'success')
})

test('failed: "Not live", with the reason exactly as the build or the gate gave it', async () => {
  const reason = '/case-studies/x links to /case-studies/nope, which does not exist'
  answer({ state: 'failed', at: '2026-11-26T14:05:00.000Z', reason })
  render(<Probe {...props} />)
  const badge = await screen.findByTestId('badge')
  expect(badge).toHaveTextContent('Not live')
  expect(badge.getAttribute('title')).toContain(reason)
  expect(badge).toHaveAttribute('data-color', 'danger')
})

test('building: "Building", and it asks again until the build ends', async () => {
  jest.useFakeTimers()
  try {
    const since = '2026-11-26T14:05:00.000Z'
    const fetchMock = answer({ state: 'building', since }, { state: 'live', since, buildId: 'b2' })
    render(<Probe {...props} />)
    const badge = await screen.findByTestId('badge')
    expect(badge).toHaveTextContent('Building')
    expect(badge).toHaveAttribute('data-color', 'primary')
    jest.advanceTimersByTime(POLL_MS)
    await waitFor(() => expect(screen.getByTestId('badge')).toHaveTextContent(`Live since ${hhmm(since)}`))
    expect(fetchMock).toHaveBeenCalledTimes(2)
  } finally {
    jest.useRealTimers()
  }
})

test('unknown, no publisher (404) or no network: no badge', async () => {
  for (const state of [{ state: 'unknown' } as PublishState, 404]) {
    const fetchMock = answer(state)
    const { unmount } = render(<Probe {...props} />)
    await waitFor(() => expect(fetchMock).toHaveBeenCalled())
    expect(screen.getByTestId('none')).toBeInTheDocument()
    unmount()
  }
  global.fetch = jest.fn().mockRejectedValue(new TypeError('Failed to fetch')) as unknown as typeof fetch
  render(<Probe {...props} />)
  await waitFor(() => expect(global.fetch).toHaveBeenCalled())
  expect(screen.getByTestId('none')).toBeInTheDocument()
})
