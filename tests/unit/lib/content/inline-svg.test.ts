/**
 * @jest-environment node
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { toInlineSvg } from '@/lib/content/inline-svg'

const seedImage = (file: string) => readFileSync(path.join('studio/seed/images', file), 'utf8')
const svg = (inner: string, rootAttributes = 'viewBox="0 0 100 50"') =>
  `<svg xmlns="http://www.w3.org/2000/svg" ${rootAttributes}>${inner}</svg>`

/** Every id the markup defines, and every `#id` it refers to (url(#...) and href="#..."). */
function idsAndReferences(markup: string) {
  const ids = [...markup.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1])
  const references = [...markup.matchAll(/(?:url\(#|href="#)([^)"]+)/g)].map((match) => match[1])
  return { ids, references }
}

test('a seed illustration is inlined: its viewBox kept, its title gone, every reference still resolving', async () => {
  const source = seedImage('site-plumber.svg')
  const inline = await toInlineSvg(source, 'ab12')
  expect(inline).not.toBeNull()
  expect(inline!.viewBox).toBe('0 0 1200 800')
  expect(inline!.markup).not.toMatch(/<title|<svg|<script/)
  expect(inline!.markup).toContain('Gas Safe registered') // the drawing's own text is kept
  const { ids, references } = idsAndReferences(inline!.markup)
  expect(ids.length).toBeGreaterThan(0)
  for (const id of ids) expect(id).toMatch(/^ab12-/)
  expect(references.length).toBeGreaterThan(0)
  for (const reference of references) expect(ids).toContain(reference)
})

test.each(['case-40-hours.svg', 'case-osteopath-lancing.svg', 'site-barbershop.svg', 'site-boutique.svg'])(
  'the seed illustration %s passes every gate',
  async (file) => {
    expect(await toInlineSvg(seedImage(file), 'x1')).not.toBeNull()
  },
)

test('two drawings with the same ids get different ones, so neither captures the other’s gradient', async () => {
  const source = svg('<defs><linearGradient id="bg"/></defs><rect width="10" height="10" fill="url(#bg)"/>')
  const first = idsAndReferences((await toInlineSvg(source, 'one'))!.markup)
  const second = idsAndReferences((await toInlineSvg(source, 'two'))!.markup)
  expect(first.ids).toEqual([expect.stringMatching(/^one-/)])
  expect(second.ids).toEqual([expect.stringMatching(/^two-/)])
  expect(first.references).toEqual(first.ids)
  expect(second.references).toEqual(second.ids)
})

test('class names are prefixed too, so the page’s utility classes (hidden, fixed, ...) cannot reach the drawing', async () => {
  const inline = await toInlineSvg(
    svg('<rect class="hidden" width="10" height="10"/><circle class="fixed" r="3"/>'),
    'c1',
  )
  expect(inline!.markup).toContain('class="c1-hidden"')
  expect(inline!.markup).toContain('class="c1-fixed"')
})

test('attributes on the root that the drawing inherits move onto a group around it', async () => {
  const inline = await toInlineSvg(
    svg(
      '<path d="M0 0h10v10z" stroke="#000"/><path d="M20 0h10v10z" stroke="#111"/>',
      'viewBox="0 0 100 50" fill="none"',
    ),
    'g1',
  )
  expect(inline!.markup).toMatch(/^<g fill="none">.*<\/g>$/)
})

test('width and height without a viewBox become one (the page scales the drawing)', async () => {
  expect(
    (await toInlineSvg(svg('<rect width="10" height="10"/>', 'width="40" height="20"'), 'w1'))?.viewBox,
  ).toBe('0 0 40 20')
})

test('scripts, event handlers and javascript: links never reach the markup', async () => {
  const inline = await toInlineSvg(
    svg(
      '<script>alert(1)</script><rect width="10" height="10" onload="alert(2)"/><a href="javascript:alert(3)"><text>x</text></a>',
    ),
    's1',
  )
  expect(inline?.markup ?? '').not.toMatch(/script|onload|alert/i)
})

test.each([
  [
    'a foreignObject (HTML inside the drawing)',
    svg('<foreignObject width="10" height="10"><div>hi</div></foreignObject>'),
  ],
  [
    'a <style> element that would style the whole page',
    svg('<style>text{fill:red}</style><text>a</text><text y="9">b</text>'),
  ],
  ['an image from another site', svg('<image href="https://example.com/a.png" width="10" height="10"/>')],
  ['a <use> of another file', svg('<use href="other.svg#a"/>')],
  [
    'a paint server in another file',
    svg('<rect width="10" height="10" fill="url(https://example.com/a.svg#g)"/>'),
  ],
  ['a link (a control inside an image)', svg('<a href="#top"><rect width="10" height="10"/></a>')],
  ['markup that is not well-formed XML', svg('<rect width="10" height="10">')],
  ['no viewBox and no size', '<svg xmlns="http://www.w3.org/2000/svg"><rect width="10" height="10"/></svg>'],
  ['not an SVG', '<div>hello</div>'],
])('a file with %s is not inlined', async (_, source) => {
  expect(await toInlineSvg(source, 'n1')).toBeNull()
})

test('a <use> of a shape inside the drawing is kept', async () => {
  const inline = await toInlineSvg(
    svg(
      '<defs><circle id="dot" r="2"/></defs><use href="#dot" x="5"/><use href="#dot" x="9"/><use href="#dot" x="13"/>',
    ),
    'u1',
  )
  const { ids, references } = idsAndReferences(inline!.markup)
  expect(ids).toEqual([expect.stringMatching(/^u1-/)])
  expect(references).toEqual([ids[0], ids[0], ids[0]])
})

test('an id prefix that is not a valid id start is an error', async () => {
  await expect(toInlineSvg(svg(''), '1a')).rejects.toThrow('"1a" is not a valid id prefix')
})
