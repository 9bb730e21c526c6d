import { formatPounds, monthlyEarnings } from '@/lib/earnings'
import { excerpt } from '@/lib/text'
import { mediaFileName } from '@/lib/content/media'

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
