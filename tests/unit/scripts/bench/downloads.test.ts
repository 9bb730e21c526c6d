/**
 * @jest-environment node
 */
import { aheadOf, kindOf, totalsOf, type Download } from '@/scripts/bench/downloads'
import { medianBy } from '@/scripts/bench/median'

const download = (url: string, kind: Download['kind'], gzip: number): Download => ({
  url,
  kind,
  raw: gzip * 3,
  gzip,
  br: gzip - 1,
})

test("a script counts by Chromium's resource type; page data is Next's RSC payload file; nothing else counts", () => {
  expect(kindOf('http://127.0.0.1:3000/_next/static/chunks/a.js', 'script')).toBe('script')
  expect(kindOf('http://127.0.0.1:3000/sites.txt?_rsc=1x2', 'fetch')).toBe('data')
  expect(kindOf('http://127.0.0.1:3000/case-studies/__next._tree.txt', 'fetch')).toBe('data')
  expect(kindOf('http://127.0.0.1:3000/media/a.webp', 'image')).toBeNull()
  expect(kindOf('http://127.0.0.1:3000/_next/static/css/a.css', 'stylesheet')).toBeNull()
})

test('totals add each kind apart, and a URL fetched twice is counted once', () => {
  const totals = totalsOf([
    download('/a.js', 'script', 10),
    download('/b.js', 'script', 5),
    download('/a.js', 'script', 10),
    download('/sites.txt', 'data', 2),
  ])
  expect(totals.script).toEqual({ raw: 45, gzip: 15, br: 13, count: 2 })
  expect(totals.data).toEqual({ raw: 6, gzip: 2, br: 1, count: 1 })
  expect(totalsOf([]).script.count).toBe(0)
})

test('the HTML ahead of the LCP tag as React wrote it, its inline styles and linked stylesheets', () => {
  const style = '<style>a{color:red}</style>'
  const html = `<html><head>${style}<link rel="stylesheet" href="/a.css"/></head><body><img alt="Ann&#x27;s site" fetchPriority="high"/><link rel="stylesheet" href="/late.css"/>`
  const ahead = aheadOf(html, '<img alt="Ann\'s site" fetchpriority="high">', '/')
  expect(ahead.before).toBe(html.slice(0, html.indexOf('<img')))
  expect(ahead.style).toBe(style.length)
  expect(ahead.sheets).toEqual(['/a.css'])
  expect(() => aheadOf(html, '<h1 class="a">', '/sites')).toThrow('/sites: the LCP element <h1 class="a">')
})

test('the median item by a key, NaN left out', () => {
  const runs = [{ ms: 30 }, { ms: 10 }, { ms: NaN }, { ms: 20 }]
  expect(medianBy(runs, (run) => run.ms)).toBe(runs[3])
  expect(medianBy([{ ms: NaN }], (run) => run.ms).ms).toBeNaN()
})
