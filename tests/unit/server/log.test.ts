/**
 * @jest-environment node
 *
 * The publisher's log (server/log.ts): JSON for files and pipes, readable lines on a terminal,
 * and no secret in either.
 */
import { Writable } from 'node:stream'
import { publisherLog } from '@/server/log'

const SECRET = 's'.repeat(40)

/** Logs what a request, a build's output and an error might carry, and returns the text written. */
function logged(pretty: boolean): string {
  let text = ''
  const destination = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk)
      done()
    },
  })
  const log = publisherLog({ level: 'info', secrets: [SECRET], destination, pretty })
  log.info(
    {
      req: { method: 'GET', url: `/preview/enable?secret=${SECRET}`, headers: { authorization: 'Bearer x' } },
    },
    'preview opened',
  )
  log.info({ headers: { authorization: `Bearer ${SECRET}`, cookie: 'session=abc' } }, 'a request')
  log.warn({ output: `build said ${SECRET}` }, `the build failed with ${SECRET}`)
  log.error({ err: new Error(`token ${SECRET} refused`) }, 'a library failed')
  return text
}

test('JSON, one line an event: no secret, no query string, proof headers redacted', () => {
  const lines = logged(false)
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
  expect(lines.map((line) => line.msg)).toEqual([
    'preview opened',
    'a request',
    'the build failed with [secret]',
    'a library failed',
  ])
  expect(lines[0]!.req).toEqual({ method: 'GET', path: '/preview/enable' })
  expect(lines[1]!.headers).toEqual({ authorization: '[redacted]', cookie: '[redacted]' })
  expect(JSON.stringify(lines)).not.toContain(SECRET)
})

test('pretty lines, as on a terminal: readable, and still no secret', () => {
  const text = logged(true)
  expect(text).toMatch(/INFO.*preview opened/)
  expect(text).toMatch(/WARN.*the build failed with \[secret\]/)
  expect(text).toContain('[redacted]')
  expect(text).not.toContain(SECRET)
  expect(() => JSON.parse(text.split('\n')[0]!)).toThrow()
})
