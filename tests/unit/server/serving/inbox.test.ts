/**
 * @jest-environment node
 */
import { existsSync, readFileSync } from 'node:fs'
import { HONEYPOT_FIELD } from '@/lib/contact'
import { parseContact } from '@/server/serving/inbox'
import { startFixture, type Fixture } from '../../helpers/publisherFixture'

let site: Fixture
beforeEach(async () => {
  site = await startFixture({ inboxRateLimit: { max: 100, timeWindow: 60_000 } })
}, 30_000)
afterEach(() => site.close())

const entry = {
  firstName: 'Sam',
  lastName: 'Patel',
  email: 'sam@example.co.uk',
  phone: '07700 900123',
  website: '',
  automation: 'Quotes and reminders',
}
const stored = () =>
  existsSync(site.inboxFile)
    ? readFileSync(site.inboxFile, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
    : []

test("the form's JSON is stored as one line, on disk before the 200", async () => {
  const response = await site.app.inject({ method: 'POST', url: '/api/contact', payload: entry })
  expect(response.statusCode).toBe(200)
  expect(stored()).toEqual([{ ...entry, receivedAt: expect.any(String) }])
})

test('a browser without JavaScript posts the form and is sent back to /#contact', async () => {
  const response = await site.app.inject({
    method: 'POST',
    url: '/api/contact',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ ...entry, website: 'https://patel.example' }).toString(),
  })
  expect(response.statusCode).toBe(303)
  expect(response.headers.location).toBe('/#contact')
  expect(stored()[0]).toMatchObject({ firstName: 'Sam', website: 'https://patel.example' })
})

test('bad input gets 400 and is not stored', async () => {
  const bad: unknown[] = [
    { ...entry, firstName: '' },
    { ...entry, email: undefined },
    { ...entry, email: 'not-an-address' },
    { ...entry, phone: ['07700'] },
    { ...entry, automation: 'a'.repeat(5001) },
    [entry],
  ]
  for (const payload of bad) {
    const response = await site.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: payload as object,
    })
    expect(response.statusCode).toBe(400)
  }
  const broken = await site.app.inject({
    method: 'POST',
    url: '/api/contact',
    headers: { 'content-type': 'application/json' },
    payload: '{"firstName":',
  })
  expect(broken.statusCode).toBe(400)
  const huge = await site.app.inject({
    method: 'POST',
    url: '/api/contact',
    payload: { ...entry, automation: 'a'.repeat(64 * 1024) },
  })
  expect(huge.statusCode).toBe(413)
  expect(stored()).toEqual([])
})

test('each client is rate-limited (429 past the limit), and nothing past it is stored', async () => {
  await site.close()
  site = await startFixture({ inboxRateLimit: { max: 5, timeWindow: 60_000 } })
  const statuses: number[] = []
  for (let i = 0; i < 7; i++)
    statuses.push((await site.app.inject({ method: 'POST', url: '/api/contact', payload: entry })).statusCode)
  expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429])
  expect(stored()).toHaveLength(5)
}, 30_000) // it starts a publisher of its own

test('parseContact trims, fills absent optional fields and lists every problem', () => {
  expect(parseContact({ ...entry, firstName: '  Sam ', website: undefined })).toEqual({
    ok: true,
    entry: { ...entry, website: '' },
  })
  expect(parseContact({ email: 'x' })).toEqual({
    ok: false,
    problems: [
      'firstName: required',
      'lastName: required',
      'phone: required',
      'email: not an e-mail address',
    ],
  })
})

describe('the honeypot (lib/contact.ts HONEYPOT_FIELD): a bot is answered like a person, and nothing is stored', () => {
  test('a form post with the honeypot filled gets the same 303 to /#contact, is logged as dropped, not stored', async () => {
    const response = await site.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ...entry, [HONEYPOT_FIELD]: 'Acme Ltd' }).toString(),
    })
    expect(response.statusCode).toBe(303)
    expect(response.headers.location).toBe('/#contact')
    expect(stored()).toEqual([])
    expect(site.logs).toContainEqual(expect.objectContaining({ event: 'contact.dropped' }))
    expect(site.logs).not.toContainEqual(expect.objectContaining({ event: 'contact.stored' }))
  })

  test('JSON with the honeypot filled gets the same 200 body as a stored entry, and is not stored', async () => {
    const person = await site.app.inject({ method: 'POST', url: '/api/contact', payload: entry })
    for (const value of ['x', '  spam  ', ['a'], 1]) {
      const bot = await site.app.inject({
        method: 'POST',
        url: '/api/contact',
        payload: { ...entry, [HONEYPOT_FIELD]: value },
      })
      expect(bot.statusCode).toBe(200)
      expect(bot.body).toBe(person.body)
      expect(bot.headers['content-type']).toBe(person.headers['content-type'])
    }
    expect(stored()).toEqual([{ ...entry, receivedAt: expect.any(String) }])
  })

  test('a bot learns nothing from validation either: a filled honeypot with bad fields still gets 200', async () => {
    const response = await site.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { email: 'not-an-address', [HONEYPOT_FIELD]: 'x' },
    })
    expect(response.statusCode).toBe(200)
    expect(stored()).toEqual([])
  })

  test('an empty honeypot (what a person without JavaScript posts) is stored as usual, without the field', async () => {
    const response = await site.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ...entry, [HONEYPOT_FIELD]: '' }).toString(),
    })
    expect(response.statusCode).toBe(303)
    expect(stored()).toEqual([{ ...entry, receivedAt: expect.any(String) }])
  })
})
