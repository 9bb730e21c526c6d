/**
 * @jest-environment node
 *
 * A preview page waiting for the publisher's next preview build (lib/preview-rebuild.ts).
 */
import { waitForPreviewBuild } from '@/lib/preview-rebuild'

const health = (id: string | null, building = false, queued = false) => ({
  building,
  queued,
  preview: { lastBuild: id && { id } },
})
/** `/healthz` answering each of `answers` in turn (the last one from then on). */
function publisher(...answers: unknown[]) {
  let asked = 0
  const fetchHealth = jest.fn(async () => answers[Math.min(asked++, answers.length - 1)])
  return fetchHealth
}
const sleep = async () => {}

test('resolves once a newer preview build is ready and nothing is building or queued', async () => {
  const fetchHealth = publisher(
    health('p1'), // when the draft changed
    health('p1'), // the webhook has not arrived yet
    health('p1', true), // building
    health('p2', false, true), // one build done, another queued (a later edit)
    health('p3'),
  )
  await expect(waitForPreviewBuild(fetchHealth, { sleep })).resolves.toBe('rebuilt')
  expect(fetchHealth).toHaveBeenCalledTimes(5)
})

test('the first preview build counts as newer', async () => {
  await expect(waitForPreviewBuild(publisher(health(null), health('p1')), { sleep })).resolves.toBe('rebuilt')
})

test('gives up after the timeout, so the editor is never stuck', async () => {
  const fetchHealth = publisher(health('p1'))
  await expect(waitForPreviewBuild(fetchHealth, { sleep, intervalMs: 1000, timeoutMs: 5000 })).resolves.toBe(
    'timeout',
  )
  expect(fetchHealth).toHaveBeenCalledTimes(6)
})

test('an answer that is not the publisher with preview on fails, saying what it expected', async () => {
  for (const answer of [null, { ok: true }, { building: false, queued: false, preview: null }])
    await expect(waitForPreviewBuild(publisher(answer), { sleep })).rejects.toThrow(
      '/healthz does not report preview builds',
    )
})
