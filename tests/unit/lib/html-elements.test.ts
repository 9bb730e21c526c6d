/**
 * @jest-environment node
 */
import { applyEdits } from '@/lib/html-elements'

test('applies cuts and insertions at offsets of the original, in any order', () => {
  const html = '<head><a/><b/><c/></head>'
  const b = { start: html.indexOf('<b/>'), end: html.indexOf('<c/>') }
  const a = html.indexOf('<a/>')
  // An insertion where a cut starts goes before it, whichever is listed first.
  expect(applyEdits(html, [{ ...b }, { start: a, end: a, text: '<x/>' }, { start: a, end: b.start }])).toBe(
    '<head><x/><c/></head>',
  )
  expect(applyEdits(html, [{ start: b.start, end: b.end, text: '<y/>' }])).toBe('<head><a/><y/><c/></head>')
  expect(applyEdits(html, [])).toBe(html)
})
