/**
 * @jest-environment node
 *
 * The click-to-edit coverage check (tests/e2e/stega-coverage.ts) reads links as the
 * overlays do and compares them with the dataset: an editor-owned text with no link, or a
 * link to a field that does not hold the text, is found; a fixed label is not counted.
 */
import { stegaEncodeSourceMap } from '@sanity/client/stega'
import { coverageOf, derivedStrings, linkOf, ownedTexts, type PageText } from '../../../e2e/stega-coverage'
import { editAttribute } from '@/lib/content/stega'
import { localSourceMap } from '@/lib/content/source-map'
import { excerpt } from '@/lib/text'

const issue = [
  { _key: 'b1', _type: 'block', children: [{ _key: 's1', _type: 'span', text: 'A'.repeat(90) }] },
  { _key: 'b2', _type: 'block', children: [{ _key: 's2', _type: 'span', text: 'B'.repeat(90) }] },
]
const study = { _id: 'study', _type: 'caseStudy', title: 'Saved forty hours', issue }
const site = { _id: 'site', _type: 'portfolioSite', title: 'Barbers', url: 'https://www.kingsway.example/' }
const owned = ownedTexts([
  study,
  site,
  { _id: 'image-a-1x1-png', _type: 'sanity.imageAsset', originalFilename: 'a.png' },
])

/** A text as the preview renders it: the result string encoded with its local source map. */
function encoded(result: Record<string, unknown>, docs: { _id: string; _type: string }[]) {
  const map = localSourceMap(result, new Map(docs.map((doc) => [doc._id, doc])))
  return stegaEncodeSourceMap(result, map, { enabled: true, studioUrl: '/studio' })
}
const text = (value: string, sanity: string | null = null, reachable: boolean | null = true): PageText => ({
  text: value,
  sanity,
  where: 'p',
  reachable,
})

test('owned texts: fields, the portable text preview and a host; never an asset', () => {
  expect(owned.get('Saved forty hours')).toEqual(new Set(['study|title']))
  // Keys are texts as a page shows them: white space collapsed.
  const preview = excerpt(`${'A'.repeat(90)}\n\n${'B'.repeat(90)}`).replace(/\s+/g, ' ')
  expect(owned.get(preview)).toEqual(new Set(['study|issue']))
  expect(owned.get('kingsway.example')).toEqual(new Set(['site|url']))
  expect(owned.has('a.png')).toBe(false)
  expect(derivedStrings('not an address')).toEqual([])
})

test('a stega link and a data-sanity link are read as the overlays read them', () => {
  const { title } = encoded({ _id: 'study', title: 'Saved forty hours' }, [study]) as { title: string }
  expect(linkOf(text(title))).toEqual({ id: 'study', path: 'title' })
  const attribute = editAttribute('/studio', { id: 'study', type: 'caseStudy', path: 'issue' })
  expect(linkOf(text('whatever', attribute))).toEqual({ id: 'study', path: 'issue' })
  expect(linkOf(text('Read case study'))).toBeNull()
})

test('counts owned texts with and without links; fixed labels are not counted', () => {
  const { title } = encoded({ _id: 'study', title: 'Saved forty hours' }, [study]) as { title: string }
  const preview = excerpt(`${'A'.repeat(90)}\n\n${'B'.repeat(90)}`)
  const linkedPreview = text(
    preview,
    editAttribute('/studio', { id: 'study', type: 'caseStudy', path: 'issue' }),
  )
  const coverage = coverageOf(
    [text(title), linkedPreview, text('kingsway.example'), text('Read case study')],
    owned,
  )
  expect(coverage).toMatchObject({ owned: 3, linked: 2, wrong: [] })
  expect(coverage.unlinked).toEqual([{ text: 'kingsway.example', where: 'p', fields: ['site|url'] }])
  // An exception moves it out of the failures, with its reason.
  const excepted = coverageOf([text('kingsway.example')], owned, [
    { text: 'kingsway.example', reason: 'why' },
  ])
  expect(excepted).toMatchObject({ unlinked: [], excepted: [{ text: 'kingsway.example', reason: 'why' }] })
})

test('a link to a field that does not hold its text is wrong', () => {
  const attribute = editAttribute('/studio', { id: 'study', type: 'caseStudy', path: 'title' })
  const coverage = coverageOf([text('kingsway.example', attribute)], owned)
  expect(coverage.wrong).toEqual([
    { text: 'kingsway.example', where: 'p', link: 'study|title', fields: ['site|url'] },
  ])
  // A link on a text no editor owns is wrong too: it would open a field that shows something else.
  expect(coverageOf([text('Read case study', attribute)], owned).wrong).toHaveLength(1)
})

test("a linked text the pointer cannot reach (covered by a card's stretched link) is no overlay: a failure", () => {
  const attribute = editAttribute('/studio', { id: 'study', type: 'caseStudy', path: 'title' })
  const covered = coverageOf([text('Saved forty hours', attribute, false)], owned)
  expect(covered).toMatchObject({
    owned: 1,
    linked: 0,
    unreachable: [{ text: 'Saved forty hours', where: 'p' }],
  })
  // Not shown at all (a closed disclosure): counted, as an editor opens it to reach it.
  expect(coverageOf([text('Saved forty hours', attribute, null)], owned)).toMatchObject({ linked: 1 })
})
