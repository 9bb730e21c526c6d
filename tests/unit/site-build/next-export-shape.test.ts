/**
 * @jest-environment node
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { BUILD_MARKER } from '@/lib/build-output'
import { finalizeExport } from '@/site-build/finalize'
import { assertRewritten, driftOf } from '@/site-build/next-export-shape'
import { withoutScripts } from '@/scripts/audit/scriptless-copy'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'export-shape-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const write = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
  writeFileSync(path.join(dir, file), text)
}
const settings = { bookingWidgetUrl: '/booking/', contactWebhookUrl: '/api/contact' }
const font = '/_next/static/media/face-s.p.abc123.woff2'

/** A page shaped like Next 16.4's export; `chunk` and `head` let a test change one part of it. */
const nextPage = ({
  chunk = '<script src="/_next/static/chunks/a.js" async=""></script>',
  head = `<link rel="preload" href="${font}" as="font" crossorigin="" type="font/woff2"/><style>@font-face{src:url(${font})}</style>`,
  payload = 'payload',
} = {}) =>
  `<!DOCTYPE html><html><head>${head}<link rel="preload" as="script" fetchPriority="low" href="/_next/static/chunks/a.js"/>${chunk}` +
  `<script src="/_next/static/chunks/polyfills.js" noModule=""></script></head><body><h1>Hi</h1>` +
  `<script>(self.__next_f=self.__next_f||[]).push([0])</script><script>self.__next_f.push([1,${JSON.stringify(payload)}])</script></body></html>`

const exportWith = (html: string, payloadFile: string | null = 'payload') => {
  write('index.html', html)
  if (payloadFile !== null) write('index.txt', payloadFile)
}

test("a page in Next's shape is rewritten and passes the check", async () => {
  exportWith(nextPage())
  await finalizeExport(dir, settings)
  const html = readFileSync(path.join(dir, 'index.html'), 'utf8')
  expect(html).not.toContain('async=""')
  expect(html).not.toContain('self.__next_f.push([1,')
  expect(driftOf(html, true)).toEqual([])
  expect(existsSync(path.join(dir, BUILD_MARKER))).toBe(true)
})

test('chunk tags in another shape fail the build, naming the page and the pattern, and nothing is written', async () => {
  // e.g. a Next that writes `defer` instead of `async`
  const original = nextPage({ chunk: '<script src="/_next/static/chunks/a.js" defer=""></script>' })
  exportWith(original)
  await expect(finalizeExport(dir, settings)).rejects.toThrow(
    /index\.html: .*\n.*isFrameworkChunkScript: <script src="\/_next\/static\/…" async> did not match \(<script src="\/_next\/static\/chunks\/a\.js"> still in the page\)/,
  )
  expect(readFileSync(path.join(dir, 'index.html'), 'utf8')).toBe(original)
  expect(existsSync(path.join(dir, BUILD_MARKER))).toBe(false)
})

test('an inline payload that is not byte for byte the payload file fails the build', async () => {
  exportWith(nextPage(), 'payload, written differently')
  await expect(finalizeExport(dir, settings)).rejects.toThrow(/index\.html: [\s\S]*PAYLOAD_CHUNK/)
})

test('a page without its payload file fails the build, naming payloadFileOf', async () => {
  exportWith(nextPage(), null)
  await expect(finalizeExport(dir, settings)).rejects.toThrow(/index\.html: [\s\S]*payloadFileOf/)
})

test('a font preload the step does not recognise fails the build, naming PRELOADABLE_FONT', async () => {
  const renamed = '/_next/static/media/face.preload.abc123.woff2'
  exportWith(
    nextPage({
      head: `<link rel="preload" href="${renamed}" as="font" crossorigin="" type="font/woff2"/><style>@font-face{src:url(${renamed})}</style>`,
    }),
  )
  await expect(finalizeExport(dir, settings)).rejects.toThrow(/PRELOADABLE_FONT/)
})

test('a linked stylesheet means inlineCss is gone, and fails the build', () => {
  const html = nextPage({ head: '<link rel="stylesheet" href="/_next/static/chunks/a.css"/>' })
  expect(() => assertRewritten('sites.html', html, true)).toThrow(
    /sites\.html: [\s\S]*experimental\.inlineCss/,
  )
})

test('a script preload left in the page names isFrameworkScriptPreload, and only it', () => {
  const html =
    '<!doctype html><head><link rel="preload" as="script" href="/_next/static/chunks/x.js"/></head><p>x</p>'
  expect(driftOf(html, false)).toEqual([
    {
      pattern: 'isFrameworkScriptPreload: <link rel="preload" as="script" href="/_next/static/…">',
      found: '<link href="/_next/static/chunks/x.js"> still in the page',
    },
  ])
})

test('a page without any of Next (the booking stand-in) and a third-party script pass', () => {
  expect(driftOf('<!doctype html><title>Booking</title><p>x</p>', false)).toEqual([])
  expect(driftOf('<!doctype html><script src="https://cal.example/embed.js" async></script>', false)).toEqual(
    [],
  )
})

test('withoutScripts (the audit baseline) removes every script and nothing else', () => {
  const html = nextPage()
  const bare = withoutScripts(html)
  expect(bare).not.toContain('<script')
  expect(bare).toContain('<h1>Hi</h1>')
  expect(bare).toContain('<style>')
})
