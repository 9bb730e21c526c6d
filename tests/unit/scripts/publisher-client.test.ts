/**
 * @jest-environment node
 */
import { execFile } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import { promisify } from 'node:util'
import { readHealth, sendWebhook, servesLiveBuild, waitUntilSettled } from '@/scripts/publisher-client'
import { NODE, startFixture, type Fixture } from '../helpers/publisherFixture'

jest.setTimeout(60_000)
const SECRET = 'client-secret-0123456789abcdef0123456789'
let site: Fixture
let origin: string
beforeEach(async () => {
  site = await startFixture({ webhookSecret: SECRET })
  await site.app.listen({ port: 0, host: '127.0.0.1' })
  origin = `http://127.0.0.1:${(site.app.server.address() as AddressInfo).port}`
})
afterEach(() => site.close())

test('a signed publish goes live; the operator reads the whole report until the publisher settles', async () => {
  expect(await servesLiveBuild(origin)).toBe(true)
  const before = await readHealth(origin, SECRET)
  expect(before).toHaveProperty('lastError', null)
  site.setContent('published')
  expect(await sendWebhook(origin, SECRET, { _id: 'review-a', _type: 'review' })).toBe(202)
  const after = await waitUntilSettled(origin, SECRET, 20)
  expect(after.live?.id).not.toBe(before.live?.id)
  expect(site.publisher.documentStates.get('review-a')).toMatchObject({
    state: 'live',
    buildId: after.live?.id,
  })
})

test('a webhook signed with another secret is refused; nothing answering is not serving', async () => {
  expect(await sendWebhook(origin, `${SECRET}-other`, { _id: 'review-a', _type: 'review' })).toBe(401)
  await site.app.close()
  expect(await servesLiveBuild(origin)).toBe(false)
})

describe('npm run publish:local', () => {
  const publishLocal = (...args: string[]) =>
    promisify(execFile)(NODE, ['scripts/publish-local.ts', '--url', origin, ...args], {
      env: { ...process.env, SANITY_WEBHOOK_SECRET: SECRET },
      encoding: 'utf8',
    })

  test('publishes a document and says when its build is live', async () => {
    const { stdout } = await publishLocal('--document', 'review-b')
    const live = (await readHealth(origin, SECRET)).live?.id
    expect(stdout).toContain('/webhooks/sanity answered 202')
    expect(stdout).toContain(`build ${live} is live`)
  })

  test('a draft builds nothing', async () => {
    const before = (await readHealth(origin, SECRET)).live?.id
    const { stdout } = await publishLocal('--document', 'drafts.review-b')
    expect(stdout).toContain('a draft builds nothing')
    expect((await readHealth(origin, SECRET)).live?.id).toBe(before)
  })
})
