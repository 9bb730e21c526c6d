/**
 * @jest-environment node
 *
 * The preview process's console as log lines (server/preview/preview-console.ts): what Next and
 * libraries print during a render becomes one JSON line naming the page, an error its
 * message and, for content, the document and field.
 */
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { ContentError } from '@/lib/content/build-rules'
import { consoleToLog } from '@/server/preview/preview-console'
import { renderContext } from '@/server/preview/preview-renderer'

let lines: Record<string, unknown>[]
let restore: () => void

beforeEach(() => {
  lines = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line))
      done()
    },
  })
  restore = consoleToLog(pino({}, sink))
})
afterEach(() => restore())

test("a render's error is one error line naming the page, the message and the stack", () => {
  renderContext.run({ path: '/case-studies/x' }, () => console.error(new Error('boom')))
  expect(lines).toEqual([
    expect.objectContaining({
      level: 50,
      event: 'preview.render-error',
      path: '/case-studies/x',
      error: 'boom',
      stack: expect.stringContaining('Error: boom'),
      msg: 'boom',
    }),
  ])
})

test('a content error names its document and field', () => {
  renderContext.run({ path: '/' }, () =>
    console.error('render failed:', new ContentError('drafts.review-a', 'text', 'Required')),
  )
  expect(lines[0]).toMatchObject({
    event: 'preview.render-error',
    path: '/',
    documentId: 'drafts.review-a',
    field: 'text',
    msg: 'render failed:',
  })
})

test('notices are info and warn lines; outside a render they name no page', () => {
  console.log('✓ Ready in %d ms', 12)
  console.warn('a warning')
  expect(lines).toEqual([
    expect.objectContaining({ level: 30, event: 'preview.output', msg: '✓ Ready in 12 ms' }),
    expect.objectContaining({ level: 40, event: 'preview.output', msg: 'a warning' }),
  ])
  expect(lines[0]).not.toHaveProperty('path')
})

test("an error line outside a render that carries no Error (Node's own warning) is output, not a render error", () => {
  console.error('(node:1) Warning: something about the environment')
  expect(lines).toEqual([expect.objectContaining({ level: 50, event: 'preview.output' })])
})
