import { formatPounds, monthlyEarnings } from '@/lib/earnings'
import { excerpt, scriptSafeJson, siteHost } from '@/lib/text'
import { mediaFileName } from '@/lib/content/image'
import { median } from '@/scripts/bench/median'

describe('excerpt (spec §9: 120 characters plus ellipsis)', () => {
  test('cuts after 120 characters and adds an ellipsis', () => {
    const text = 'a'.repeat(150)
    expect(excerpt(text)).toBe(`${'a'.repeat(120)}…`)
  })

  test('leaves a short text whole', () => {
    expect(excerpt('Short issue.')).toBe('Short issue.')
  })

  test('never splits an emoji', () => {
    expect(excerpt(`${'a'.repeat(119)}😀😀`)).toBe(`${'a'.repeat(119)}😀…`)
  })
})

describe('earnings calculator (spec §9: hours x rate x 4)', () => {
  test('multiplies weekly hours by the rate and four weeks', () => {
    expect(monthlyEarnings(10, 45)).toBe(1800)
    expect(monthlyEarnings(168, 1)).toBe(672)
  })

  test.each([
    [0, 10],
    [169, 10],
    [10, 0.5],
    [Number.NaN, 10],
  ])('rejects hours %p at rate %p', (hours, rate) => {
    expect(() => monthlyEarnings(hours, rate)).toThrow(RangeError)
  })

  test('formats pounds with thousands separators', () => {
    expect(formatPounds(12480)).toBe('£12,480')
    expect(formatPounds(1234567.5)).toBe('£1,234,567.50')
  })
})

describe('mediaFileName', () => {
  test("follows Sanity's CDN naming", () => {
    expect(mediaFileName('image-0123abcd-1200x800-svg')).toBe('0123abcd-1200x800.svg')
  })

  test('rejects an id that is not an image asset', () => {
    expect(() => mediaFileName('file-abc-pdf')).toThrow('"file-abc-pdf" is not a Sanity image asset id')
  })
})

describe('scriptSafeJson', () => {
  test('escapes < so content cannot close the script element', () => {
    const json = scriptSafeJson({ name: '</script><script>alert(1)</script>' })
    expect(json).not.toContain('<')
    expect(JSON.parse(json)).toEqual({ name: '</script><script>alert(1)</script>' })
  })
})

describe('median (npm run bench, npm run audit:lighthouse)', () => {
  test('the middle value, the upper middle of an even count, NaN runs left out', () => {
    expect(median([3, 1, 2])).toBe(2)
    expect(median([4, 1, 3, 2])).toBe(3)
    expect(median([NaN, 5, 1, NaN, 3])).toBe(3)
    expect(median([NaN])).toBeNaN()
  })
})

test("siteHost: a portfolio site's host as its card shows it, without www.", () => {
  expect(siteHost('https://www.kingswaybarbers.co.uk/')).toBe('kingswaybarbers.co.uk')
  expect(siteHost('https://shop.example.com/path?q=1')).toBe('shop.example.com')
  expect(() => siteHost('not an address')).toThrow(/Invalid URL/)
})
