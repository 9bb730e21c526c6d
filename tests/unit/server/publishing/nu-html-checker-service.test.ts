/**
 * @jest-environment node
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import {
  checkHtml,
  javaAvailable,
  startHtmlChecker,
  type HtmlChecker,
} from '@/server/publishing/nu-html-checker'
import { WarmHtmlChecks } from '@/server/publishing/gate'

const java = javaAvailable()
if (!java) console.warn('Java 17 is not installed: the Nu HTML checker service tests are skipped')
const withJava = java ? describe : describe.skip

const invalid =
  '<!DOCTYPE html><html lang="en"><head><title>x</title>' +
  '<style>@property --x{syntax:"*";inherits:false}.a{margin-trim:block}</style></head>' +
  '<body><p>text</p><img src="a.png">\n<p><div>block in a paragraph</div></p></body></html>'
const valid =
  '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Valid</title></head>' +
  '<body><main><h1>Café “quoted”</h1><p>A valid page.</p></main></body></html>'

/** Whether a TCP connection to host:port is refused (nothing listens there). */
function refused(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 3_000 })
    socket.once('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('timeout', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'))
  })
}

withJava('the Nu HTML checker service', () => {
  let dir: string
  let checker: HtmlChecker
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vnu-service-'))
    mkdirSync(path.join(dir, 'case-studies'))
    writeFileSync(path.join(dir, 'invalid.html'), invalid)
    writeFileSync(path.join(dir, 'valid.html'), valid)
    writeFileSync(path.join(dir, 'case-studies/With space.html'), invalid)
    checker = await startHtmlChecker()
  }, 240_000)
  afterAll(async () => {
    await checker?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  test('reports the same errors as the one-shot checker, for a page with errors and a valid one', async () => {
    const files = ['invalid.html', 'valid.html', 'case-studies/With space.html']
    const [warm, once] = await Promise.all([checker.check(dir, files), checkHtml(dir, files)])
    expect(warm).toEqual(once)
    expect(warm.map((error) => [error.file, error.line])).toEqual([
      ['invalid.html', 1],
      ['invalid.html', 2],
      ['case-studies/With space.html', 1],
      ['case-studies/With space.html', 2],
    ])
    expect(warm[0]!.message).toContain('An “img” element must have an “alt” attribute')
    expect(warm.some((error) => error.message.startsWith('CSS:'))).toBe(false)
    expect(await checker.check(dir, ['valid.html'])).toEqual([])
  }, 120_000)

  test('a long page with thousands of warnings still has its one error found (no "Too many messages")', async () => {
    const sections = '<section><p>A section with no heading: a warning.</p></section>'.repeat(3000)
    writeFileSync(
      path.join(dir, 'long.html'),
      `<!DOCTYPE html><html lang="en"><head><title>Long</title></head><body>${sections}<p><div>x</div></p></body></html>`,
    )
    const errors = await checker.check(dir, ['long.html'])
    expect(errors.map((error) => error.message)).toEqual(['No “p” element in scope but a “p” end tag seen.'])
  })

  test('listens on 127.0.0.1 only', async () => {
    expect(await refused('127.0.0.1', checker.port)).toBe(false)
    const others = Object.values(os.networkInterfaces())
      .flat()
      .filter((address) => address && !address.internal && !address.address.startsWith('fe80:'))
      .map((address) => address!.address)
    if (!others.length) console.warn('no network interface but loopback: only 127.0.0.1 was tried')
    for (const address of others)
      expect([address, await refused(address, checker.port)]).toEqual([address, true])
  })

  test('a file that cannot be read is an error naming it', async () => {
    expect(await checker.check(dir, ['gone.html'])).toEqual([
      { file: 'gone.html', message: expect.stringContaining('could not be read') },
    ])
  })
})

withJava("the publisher's warm HTML checks", () => {
  test('start when warmed (once, however often) or on the first check, restart once when the service died, and throw after stop', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'vnu-warm-'))
    writeFileSync(path.join(dir, 'invalid.html'), invalid)
    const pids: number[] = []
    const checks = new WarmHtmlChecks((_ms, pid) => pids.push(pid))
    try {
      expect(pids).toEqual([])
      // A build started twice before its gate: one service, which the check then uses.
      checks.warm()
      checks.warm()
      const first = await checks.check(dir, ['invalid.html'])
      expect(first.length).toBe(2)
      expect(pids.length).toBe(1)
      expect(await checks.check(dir, ['invalid.html'])).toEqual(first)
      expect(pids.length).toBe(1)
      process.kill(pids[0]!, 'SIGKILL')
      expect(await checks.check(dir, ['invalid.html'])).toEqual(first)
      expect(pids.length).toBe(2)
      await checks.stop()
      await expect(checks.check(dir, ['invalid.html'])).rejects.toThrow(/stopped/)
      expect(() => process.kill(pids[1]!, 0)).toThrow()
    } finally {
      await checks.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 300_000)
})
