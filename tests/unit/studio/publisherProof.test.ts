/**
 * The Studio's proof for the publisher (studio/publisherProof.ts): a secret made the way
 * Sanity's Presentation tool makes one, once per editor and hour, renewed before it ends,
 * made again after the publisher refused it; no secret when it cannot be made.
 */
import type { SanityClient } from 'sanity'
import { editorProof } from '@/studio/publisherProof'

const createPreviewSecret = jest.fn()
jest.mock('@sanity/preview-url-secret/create-secret', () => ({
  createPreviewSecret: (...args: unknown[]) => createPreviewSecret(...args),
}))
jest.mock('sanity', () => ({}))

let project = 0
/** A client of a project of its own, so that each test starts with no secret cached. */
function client(): SanityClient {
  const projectId = `p${++project}`
  return { config: () => ({ projectId, dataset: 'production' }) } as unknown as SanityClient
}
const inAnHour = () => ({
  secret: `s${createPreviewSecret.mock.calls.length}`,
  expiresAt: new Date(Date.now() + 3600_000),
})

beforeEach(() => createPreviewSecret.mockReset())

test('one secret per editor, made as the signed-in editor with Presentation’s own function', async () => {
  createPreviewSecret.mockImplementation(async () => inAnHour())
  const studio = client()
  const proof = editorProof(studio, 'user-1')
  expect(await proof.token()).toBe('s1')
  expect(await editorProof(studio, 'user-1').token()).toBe('s1')
  expect(createPreviewSecret).toHaveBeenCalledTimes(1)
  expect(createPreviewSecret).toHaveBeenCalledWith(studio, 'publish-status', window.location.origin, 'user-1')
  // Another editor gets their own.
  expect(await editorProof(studio, 'user-2').token()).toBe('s2')
})

test('renewed before its hour ends, and made again once the publisher refused it', async () => {
  createPreviewSecret.mockResolvedValueOnce({ secret: 'ending', expiresAt: new Date(Date.now() + 60_000) })
  createPreviewSecret.mockImplementation(async () => inAnHour())
  const proof = editorProof(client(), 'user-1')
  expect(await proof.token()).toBe('ending')
  expect(await proof.token()).toBe('s2')
  proof.forget()
  expect(await proof.token()).toBe('s3')
})

test('no secret (no network, no write access): null, and the badge asks without one', async () => {
  createPreviewSecret.mockRejectedValue(new Error('Insufficient permissions'))
  expect(await editorProof(client(), 'viewer').token()).toBeNull()
})
