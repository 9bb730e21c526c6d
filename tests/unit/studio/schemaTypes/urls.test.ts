/**
 * @jest-environment node
 *
 * The Studio's rules for every link and embed field (studio/schemaTypes), run
 * with Sanity's own validator (@sanity/validation's Rule, as the Studio runs it):
 * `javascript:`, `data:`, `http:` and other-site addresses are refused, also
 * `//host` and `/\host`, which Sanity's `allowRelative` alone lets through.
 */
import { schemaTypes } from '@/studio/schemaTypes'
import { BAD_PATHS, BAD_URLS } from '../../helpers/badUrls'

jest.mock('sanity', () => jest.requireActual('../../helpers/sanityStub').sanity)
// @sanity/validation is ESM with lodash-es and a few @sanity/util helpers it does not use
// for string rules: give jest CommonJS stand-ins so its real Rule class loads.
for (const name of [
  'capitalize',
  'castArray',
  'cloneDeep',
  'difference',
  'flatMap',
  'flatten',
  'get',
  'isFinite',
  'isObject',
  'isPlainObject',
  'isUndefined',
  'memoize',
  'omit',
  'omitBy',
  'partition',
  'pick',
  'startCase',
  'toPath',
  'uniq',
  'uniqBy',
])
  jest.doMock(`lodash-es/${name}.js`, () => jest.requireActual(`lodash/${name}`))
jest.mock('@sanity/util/client', () => ({ createClientConcurrencyLimiter: () => null }))
jest.mock('@sanity/util/concurrency-limiter', () => ({ ConcurrencyLimiter: class {} }))
jest.mock('@sanity/util/legacyDateFormat', () => ({}))
jest.mock('arrify', () => (value: unknown) => (value == null ? [] : Array.isArray(value) ? value : [value]))

type SanityRule = { validate: (value: unknown, context: object) => Promise<{ level: string }[]> }
type Field = {
  name: string
  type: string
  validation?: (rule: unknown) => SanityRule
  fields?: Field[]
  of?: { type: string; marks?: { annotations?: { name: string; fields: Field[] }[] } }[]
}
const types = schemaTypes as unknown as { name: string; fields: Field[] }[]
const fieldOf = (typeName: string, fieldName: string) =>
  types.find((type) => type.name === typeName)!.fields.find((field) => field.name === fieldName)!

/** Errors Sanity's Rule reports for `value` under `field`'s validation. */
async function errors(field: Field, value: unknown): Promise<unknown[]> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Rule } = require('@sanity/validation/_internal') as {
    Rule: { string: () => unknown }
  }
  const rule = field.validation!(Rule.string())
  const markers = await rule.validate(value, { i18n: { t: (key: string) => key }, path: [field.name] })
  return markers.filter((marker) => marker.level === 'error')
}

/** The `href` field of the link annotation in case study text. */
function linkHref(field: string): Field {
  const block = fieldOf('caseStudy', field).of!.find((member) => member.type === 'block')!
  const link = block.marks!.annotations!.find((annotation) => annotation.name === 'link')!
  return link.fields.find((candidate) => candidate.name === 'href')!
}

const cases: { name: string; field: () => Field; bad: string[]; good: string[] }[] = [
  ...['bookingWidgetUrl', 'bookingScriptUrl', 'contactWebhookUrl', 'siteUrl'].map((name) => ({
    name: `siteSettings.${name}`,
    field: () => fieldOf('siteSettings', name),
    bad: [...BAD_URLS, ...(name === 'bookingScriptUrl' || name === 'siteUrl' ? ['/a-path'] : BAD_PATHS)],
    good: [
      'https://example.co.uk/x',
      ...(name === 'bookingScriptUrl' || name === 'siteUrl' ? [] : ['/api/contact']),
    ],
  })),
  {
    name: 'portfolioSite.url',
    field: () => fieldOf('portfolioSite', 'url'),
    bad: [...BAD_URLS, '/a-path'],
    good: ['https://www.example.co.uk'],
  },
  ...['issue', 'solution', 'outcome'].map((name) => ({
    name: `caseStudy.${name} link href`,
    field: () => linkHref(name),
    bad: [...BAD_URLS, ...BAD_PATHS],
    good: ['https://example.com', '/consultation', 'mailto:hi@example.co.uk', 'tel:+442079460321'],
  })),
]

describe.each(cases.map((item) => [item.name, item] as const))('%s', (_, item) => {
  test.each(item.bad.map((value) => [JSON.stringify(value), value]))('refuses %s', async (__, value) => {
    expect(await errors(item.field(), value)).not.toEqual([])
  })
  test.each(item.good)('accepts %s', async (value) => {
    expect(await errors(item.field(), value)).toEqual([])
  })
})
