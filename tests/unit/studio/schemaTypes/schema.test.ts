/**
 * @jest-environment node
 *
 * What agency staff see in Sanity Studio (studio/schemaTypes): help text on every
 * field, and list previews with a title, a subtitle and, for types with an image,
 * that image.
 */
import { schemaTypes } from '@/studio/schemaTypes'
import { IMAGE_TOOL_HELP } from '@/studio/schemaTypes/imageWithAlt'
import { excerpt, joinParts } from '@/studio/schemaTypes/listPreview'
import { seedDocuments } from '../../helpers/dataset'

jest.mock('sanity', () => jest.requireActual('../../helpers/sanityStub').sanity)

type Field = { name: string; type: string; description?: unknown; fields?: Field[] }
type Preview = {
  select?: Record<string, string>
  prepare?: (selection: Record<string, unknown>) => { title?: unknown; subtitle?: unknown; media?: unknown }
}
type SchemaType = { name: string; type: string; fields: Field[]; preview?: Preview }
const types = schemaTypes as unknown as SchemaType[]

/** Every field of a type, nested ones (e.g. an image's alt text) included, by path. */
function allFields(fields: Field[], prefix = ''): [string, Field][] {
  return fields.flatMap((field) => {
    const path = `${prefix}${field.name}`
    return [[path, field] as [string, Field], ...allFields(field.fields ?? [], `${path}.`)]
  })
}

/** A value at a preview `select` path ('slug.current') of a stored document. */
function valueAt(document: Record<string, unknown>, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], document)
}

const imageFields = (type: SchemaType) =>
  type.fields.filter((field) => field.type === 'image').map((field) => field.name)

describe.each(types.map((type) => [type.name, type] as const))('%s', (_, type) => {
  test('every field has a description for staff', () => {
    const missing = allFields(type.fields)
      .filter(([, field]) => typeof field.description !== 'string' || field.description.trim().length < 20)
      .map(([path]) => path)
    expect(missing).toEqual([])
  })

  test('its preview has a title and a subtitle, for a seed document and for a new, empty one', () => {
    const { select = {}, prepare } = type.preview ?? {}
    expect(prepare).toBeInstanceOf(Function)
    const seed = seedDocuments().find((doc) => doc._type === type.name)!
    const fromSeed = prepare!(
      Object.fromEntries(Object.entries(select).map(([key, path]) => [key, valueAt(seed, path)])),
    )
    const empty = prepare!({})
    for (const shown of [fromSeed, empty]) {
      expect(shown.title).toEqual(expect.stringMatching(/\S/))
      expect(shown.subtitle).toEqual(expect.stringMatching(/\S/))
    }
  })

  test('its image fields offer the hotspot and say what the site does with it', () => {
    for (const field of type.fields.filter((candidate) => candidate.type === 'image')) {
      expect(field).toMatchObject({ options: { hotspot: true } })
      expect(field.description).toContain(IMAGE_TOOL_HELP)
    }
  })

  test('its preview shows its image, when it has one', () => {
    const images = imageFields(type)
    const { select = {}, prepare } = type.preview ?? {}
    if (images.length === 0) return
    expect(images).toContain(select.media)
    const image = { asset: { _ref: 'image-abc-1200x800-svg' } }
    expect(prepare!({ media: image }).media).toBe(image)
  })
})

describe('previews say what staff look for', () => {
  const shown = (typeName: string, index = 0) => {
    const type = types.find((candidate) => candidate.name === typeName)!
    const doc = seedDocuments().filter((candidate) => candidate._type === typeName)[index]!
    const select = type.preview!.select ?? {}
    return {
      doc,
      preview: type.preview!.prepare!(
        Object.fromEntries(Object.entries(select).map(([key, path]) => [key, valueAt(doc, path)])),
      ),
    }
  }

  test('a review: name, then business and stars', () => {
    const { doc, preview } = shown('review')
    expect(preview.title).toBe(doc.name)
    expect(preview.subtitle).toMatch(new RegExp(`^${String(doc.business)} · 5 stars`))
  })

  test('a case study: its address', () => {
    const { doc, preview } = shown('caseStudy')
    expect(preview.subtitle).toBe(`/case-studies/${(doc.slug as { current: string }).current}`)
  })

  test('an FAQ: the question, and the start of its answer', () => {
    const { doc, preview } = shown('faq')
    expect(preview.title).toBe(doc.question)
    expect(String(doc.answer).startsWith(String(preview.subtitle).replace(/…$/, ''))).toBe(true)
  })

  test('a portfolio site: its host name', () => {
    const { doc, preview } = shown('portfolioSite')
    expect(preview.subtitle).toBe(new URL(String(doc.url)).host)
  })
})

describe('preview helpers', () => {
  test('excerpt keeps short text, cuts long text at a word with an ellipsis', () => {
    expect(excerpt('  Short   answer. ')).toBe('Short answer.')
    const cut = excerpt('Most projects take 5 to 7 days from kick-off to go-live, including testing.', 40)
    expect(cut).toBe('Most projects take 5 to 7 days from…')
    expect(cut.length).toBeLessThanOrEqual(40)
    expect(excerpt(undefined)).toBe('')
  })

  test('joinParts skips empty parts', () => {
    expect(joinParts('Kingsway Barbers', '', undefined, false, 5)).toBe('Kingsway Barbers · 5')
    expect(joinParts()).toBe('')
  })
})
