/**
 * @jest-environment node
 */
import { kindOf, totalsOf, type Download } from '@/scripts/bench/downloads'

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
