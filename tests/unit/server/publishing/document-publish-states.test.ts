/**
 * @jest-environment node
 */
import { DocumentPublishStates } from '@/server/publishing/document-publish-states'

const build = (id: string) => ({ id, builtAt: `${id}-time` })

test('a publish is building until the build that carries it ends; one requested meanwhile waits for the next', () => {
  const states = new DocumentPublishStates()
  expect(states.get('review-a')).toBeNull()
  states.requested('drafts.review-a', 't0')
  expect(states.get('review-a')).toEqual({ state: 'building', since: 't0' })
  const carried = states.startBuild()
  expect(carried).toEqual(['review-a'])
  states.requested('review-b', 't1')
  states.wentLive(carried, build('b1'))
  expect(states.get('drafts.review-a')).toEqual({ state: 'live', since: 'b1-time', buildId: 'b1' })
  expect(states.get('review-b')).toEqual({ state: 'building', since: 't1' })
  expect(states.startBuild()).toEqual(['review-b'])
})

test("a failed publish is live again in the next build that goes live, whoever's publish it carried", () => {
  const states = new DocumentPublishStates()
  states.requested('review-a')
  states.failed(states.startBuild(), 'at', 'document "review-a": broken')
  expect(states.get('review-a')).toEqual({ state: 'failed', at: 'at', reason: 'document "review-a": broken' })
  states.requested('review-b')
  states.wentLive(states.startBuild(), build('b2'))
  expect(states.get('review-a')).toMatchObject({ state: 'live', buildId: 'b2' })
})

test('only the newest documents are remembered', () => {
  const states = new DocumentPublishStates(2)
  for (const id of ['a', 'b', 'c']) states.requested(id)
  expect([states.get('a'), states.get('b'), states.get('c')].map((status) => status?.state ?? null)).toEqual([
    null,
    'building',
    'building',
  ])
})
