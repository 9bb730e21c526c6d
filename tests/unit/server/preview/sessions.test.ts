/**
 * @jest-environment node
 *
 * Opening preview sessions is limited per client (server/preview/preview-sessions.ts,
 * server/preview/preview.ts): a secret holder cannot end every editor's session by opening more
 * of its own, nor open them without end.
 */
import {
  PREVIEW_OPENS,
  PREVIEW_SESSIONS_PER_CLIENT,
  PreviewSessions,
} from '@/server/preview/preview-sessions'
import { startFixture, type Fixture } from '../../helpers/publisherFixture'

const PREVIEW = 'preview-secret-for-tests-0123456789abcdef'

describe('the sessions table', () => {
  test("a client at its limit ends its own oldest session, never another client's", () => {
    const sessions = new PreviewSessions({ perClient: 3 })
    const editor = sessions.open('198.51.100.1')
    const flood = Array.from({ length: 10 }, () => sessions.open('203.0.113.7'))
    expect(sessions.find(editor)).toBe(true)
    expect(flood.map((value) => sessions.find(value))).toEqual([...Array(7).fill(false), true, true, true])
    expect(sessions.size).toBe(4)
  })

  test('a full table ends expired sessions first, then the oldest of the client holding the most', () => {
    let now = 0
    const sessions = new PreviewSessions({ perClient: 4, limit: 6, lifetimeMs: 1_000, now: () => now })
    const expired = sessions.open('192.0.2.1')
    now = 2_000
    const editors = ['198.51.100.1', '198.51.100.2'].map((client) => sessions.open(client))
    // Many addresses, a few sessions each: they end their own, the editors keep theirs.
    const flood = ['203.0.113.1', '203.0.113.2', '203.0.113.3'].flatMap((client) =>
      Array.from({ length: 3 }, () => sessions.open(client)),
    )
    expect(sessions.size).toBe(6)
    expect(sessions.find(expired)).toBe(false)
    for (const editor of editors) expect(sessions.find(editor)).toBe(true)
    expect(flood.filter((value) => sessions.find(value))).toHaveLength(4)
  })

  test('defaults: 50 sessions a client, 30 opens in 10 minutes', () => {
    expect(PREVIEW_SESSIONS_PER_CLIENT).toBe(50)
    expect(PREVIEW_OPENS).toEqual({ max: 30, timeWindow: 600_000 })
  })
})

describe('/preview/enable', () => {
  let site: Fixture
  afterEach(() => site?.close())

  const enable = (client: string) =>
    site.app.inject({ url: `/preview/enable?secret=${PREVIEW}&redirect=/`, remoteAddress: client })
  const cookieOf = (answer: Awaited<ReturnType<typeof enable>>) =>
    String(answer.headers['set-cookie']).split(';')[0]!
  const inPreview = async (cookie: string, client: string) =>
    (await site.app.inject({ url: '/', headers: { cookie }, remoteAddress: client })).body.includes(
      'Preview of',
    )

  test('one client opening sessions as fast as it may ends none of the others; past its rate it gets 429', async () => {
    site = await startFixture(
      {
        previewSecret: PREVIEW,
        previewSessionLimits: { perClient: 3, limit: 5, opens: { max: 8, timeWindow: 60_000 } },
      },
      false,
    )
    const editors = ['198.51.100.1', '198.51.100.2']
    const cookies = await Promise.all(editors.map(async (client) => cookieOf(await enable(client))))
    const flood = []
    for (let i = 0; i < 8; i++) flood.push(await enable('203.0.113.7'))
    expect(flood.map((answer) => answer.statusCode)).toEqual(Array(8).fill(303))
    // Right secret or not, the ninth in the window is refused.
    const refused = await enable('203.0.113.7')
    expect(refused.statusCode).toBe(429)
    expect(refused.headers['retry-after']).toBeDefined()
    expect(refused.headers['set-cookie']).toBeUndefined()
    for (const [index, cookie] of cookies.entries())
      expect(await inPreview(cookie, editors[index]!)).toBe(true)
    // The flood holds its last three sessions only.
    const held = await Promise.all(flood.map((answer) => inPreview(cookieOf(answer), '203.0.113.7')))
    expect(held).toEqual([false, false, false, false, false, true, true, true])
    // Another client still opens one.
    expect((await enable('198.51.100.3')).statusCode).toBe(303)
  })
})
