/**
 * @jest-environment node
 *
 * Covered by construction: this walks the compiled Studio schema and, for every rule of
 * every field (built-in kinds such as required, min, max, regex, uri, integer, and every
 * custom rule), builds a copy of the seed with one document that breaks it, and proves
 * that the build's validation (`assertValidSnapshot`, run by the build's first step)
 * rejects it, naming that document and that field. A rule added to the schema later is
 * covered without a new test; a custom rule that no value of the pool below breaks fails
 * here until the pool has one.
 */
import type { Rule, SchemaType } from '@sanity/types'
import { getFallbackLocaleSource } from '@sanity/validation/_internal'
import { assertValidSnapshot, siteSchema, snapshotClient, validateSnapshot } from '@/lib/content/schema-rules'
import { ContentError } from '@/lib/content/build-rules'
import type { StoredDocument } from '@/lib/content/source'
import { schemaTypes } from '@/studio/schemaTypes'
import { seedDocuments } from '../../helpers/dataset'

type RuleSpec = { flag: string; constraint: unknown; level: 'error' | 'warning' | 'info' }
type Field = { name: string; type: SchemaType & { fields?: Field[]; of?: SchemaType[] } }
/** Where a value sits in a document: keys and array indexes, and how Sanity names it. */
type Probe = {
  set: (doc: StoredDocument, value: unknown) => void
  get: (doc: StoredDocument) => unknown
  name: string
}

const seed = seedDocuments()
const schema = siteSchema()
const documentTypes = schemaTypes.filter((type) => type.type === 'document').map((type) => type.name)

function specsOf(type: SchemaType): RuleSpec[] {
  // inferFromSchema turns every rule into Rule objects; a type it did not reach has none.
  const rules = (Array.isArray(type.validation) ? type.validation : []) as unknown as Rule[]
  return rules.flatMap((rule) => {
    const { _rules, _level } = rule as unknown as {
      _rules: Omit<RuleSpec, 'level'>[]
      _level?: RuleSpec['level']
    }
    return _rules.map((spec) => ({ ...spec, level: _level ?? 'error' }))
  })
}

/** Every field of a document type, with object fields (an image's alt) walked into. */
function fieldsOf(type: Field['type'], parents: string[] = []): { path: string[]; type: Field['type'] }[] {
  return (type.fields ?? []).flatMap((field) => {
    const path = [...parents, field.name]
    const own = { path, type: field.type }
    const nested = field.type.jsonType === 'object' ? fieldsOf(field.type, path) : []
    return [own, ...nested]
  })
}

const at = (path: string[]): Probe => ({
  name: path.join('.'),
  get: (doc) =>
    path.reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], doc),
  set: (doc, value) => {
    const parent = path
      .slice(0, -1)
      .reduce<Record<string, unknown>>((node, key) => (node[key] ??= {}) as Record<string, unknown>, doc)
    if (value === undefined) delete parent[path.at(-1)!]
    else parent[path.at(-1)!] = value
  },
})

const others = (doc: StoredDocument) =>
  seed.filter((other) => other._type === doc._type && other._id !== doc._id)

/** Values that break a rule of kind `spec.flag`, given the field's current value. */
function breakers(
  spec: RuleSpec,
  type: SchemaType,
  current: unknown,
  doc: StoredDocument,
  probe: Probe,
): unknown[] {
  const json = type.jsonType
  const n = typeof spec.constraint === 'number' ? spec.constraint : NaN
  const items = Array.isArray(current) ? current : []
  const repeat = (count: number) =>
    Array.from({ length: count }, (_, i) => structuredClone(items[i % items.length]))
  switch (spec.flag) {
    case 'presence':
      return spec.constraint === 'required' ? [undefined] : []
    case 'type':
      return [json === 'string' ? 42 : json === 'number' ? 'five' : json === 'array' ? 'text' : 'text']
    case 'min':
      return json === 'string'
        ? ['x'.repeat(Math.max(n - 1, 0))]
        : json === 'number'
          ? [n - 1]
          : [repeat(n - 1)]
    case 'max':
      return json === 'string' ? ['x'.repeat(n + 1)] : json === 'number' ? [n + 1] : [repeat(n + 1)]
    case 'integer':
      return [1.5]
    case 'email':
      return ['not an e-mail address']
    case 'regex':
      return ['call me!', '#', 'x'.repeat(50)]
    case 'uri':
      return ['http://example.com/', 'javascript:alert(1)', '//evil.example/x', 'not a url']
    case 'valid':
      return ['not-one-of-the-options']
    case 'assetRequired':
      return [{ _type: 'image', alt: 'A picture with no file' }]
    case 'reference':
      return [{ _type: 'reference', _ref: 'image-missing-1x1-png' }]
    case 'custom':
      return customPool(json, current, doc, probe)
    default:
      throw new Error(`no breaker for a "${spec.flag}" rule at ${doc._type}.${probe.name}: add one here`)
  }
}

/** Values that break custom rules: wrong shapes, unsafe addresses, and other documents' values. */
function customPool(json: string, current: unknown, doc: StoredDocument, probe: Probe): unknown[] {
  const theirs = others(doc).map((other) => probe.get(other))
  const theirAddresses = others(doc).flatMap((other) => [
    (other.slug as { current?: string } | undefined)?.current,
    other.legacyId,
  ])
  if (json === 'string')
    return [
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      'http://example.com',
      ...theirs,
      ...theirAddresses,
    ]
  if (json === 'array') {
    const items = Array.isArray(current) ? current : []
    const emptyBlocks = items.map((block) => ({
      ...(block as object),
      children: [{ _type: 'span', _key: 's0', text: ' ', marks: [] }],
    }))
    const shortFirst = items.map((block, i) =>
      i === 0
        ? {
            ...(block as object),
            children: [{ _type: 'span', _key: 's0', text: 'Too short to fill a card.', marks: [] }],
          }
        : block,
    )
    return [items.slice(0, 2), [...items, ...items].slice(0, 4), emptyBlocks, shortFirst]
  }
  if (json === 'object')
    return [
      { _type: 'slug', current: 'Not A Slug' },
      { _type: 'slug' },
      ...theirAddresses.map((address) => ({ _type: 'slug', current: address })),
      {
        ...(current as object),
        hotspot: { _type: 'sanity.imageHotspot', x: 1.5, y: 0.5, width: 0.2, height: 0.2 },
      },
    ]
  return []
}

/** The field names an error may carry for a break at `probe`: the field itself, or inside it. */
const namesField = (field: string, probe: Probe) =>
  field === probe.name || field.startsWith(`${probe.name}.`) || field.startsWith(`${probe.name}[`)

const cases = documentTypes.flatMap((typeName) => {
  const doc = seed.find((candidate) => candidate._type === typeName)!
  const type = schema.get(typeName) as Field['type']
  return fieldsOf(type).flatMap(({ path, type: fieldType }) =>
    specsOf(fieldType)
      // A warning's own type check repeats the error rule's.
      .filter((spec) => !(spec.flag === 'type' && spec.level !== 'error'))
      .map((spec, index) => ({
        title: `${typeName}.${path.join('.')} #${index + 1} (${spec.flag}${spec.level === 'error' ? '' : `, ${spec.level}`})`,
        doc,
        path,
        fieldType,
        spec,
      })),
  )
})

test('the walk finds the rules (a schema without rules would pass vacuously)', () => {
  expect(documentTypes.sort()).toEqual(
    [
      'audienceCard',
      'caseStudy',
      'faq',
      'growthItem',
      'portfolioSite',
      'review',
      'service',
      'siteSettings',
    ].sort(),
  )
  expect(cases.length).toBeGreaterThan(60)
  expect(cases.filter((item) => item.spec.flag === 'custom').length).toBeGreaterThanOrEqual(8)
})

test('the seed breaks no rule, not even a warning', async () => {
  const findings = await validateSnapshot(seed)
  expect(findings).toEqual({
    errors: [],
    warnings: [],
    documents: expect.any(Number),
    ruleReads: expect.any(Object),
  })
  // The rules read other case studies (the addresses' uniqueness, links in text), nothing
  // else, and each case study's rules read something.
  const reads = Object.values(findings.ruleReads).flat()
  expect(new Set(reads.map((read) => JSON.stringify(read.types)))).toEqual(new Set(['["caseStudy"]']))
  expect(Object.keys(findings.ruleReads).sort()).toEqual(
    seed
      .filter((doc) => doc._type === 'caseStudy')
      .map((doc) => doc._id)
      .sort(),
  )
  expect(findings.documents).toBe(seed.filter((doc) => doc._type !== 'sanity.imageAsset').length)
})

/**
 * Whether `value` breaks this very rule: a custom rule is called on its own (several custom
 * rules share a field, and the build's error does not say which one failed); a built-in
 * kind breaks by construction.
 */
async function breaksRule(
  spec: RuleSpec,
  value: unknown,
  broken: StoredDocument,
  dataset: StoredDocument[],
  item: (typeof cases)[number],
) {
  if (spec.flag !== 'custom') return true
  const client = snapshotClient(dataset)
  const parentPath = item.path.slice(0, -1)
  const context = {
    document: broken,
    parent: at(parentPath).get(broken) ?? broken,
    path: item.path,
    type: item.fieldType,
    getClient: () => client,
    i18n: getFallbackLocaleSource(),
    environment: 'studio',
  }
  const result = await (spec.constraint as (value: unknown, context: unknown) => unknown)(value, context)
  return !(result === true || (Array.isArray(result) && result.every((entry) => entry === true)))
}

test.each(cases.map((item) => [item.title, item] as const))(
  '%s: breaking it fails the build, naming the document and field',
  async (_, item) => {
    const probe = at(item.path)
    const candidates = breakers(item.spec, item.fieldType, probe.get(item.doc), item.doc, probe)
    const tried: string[] = []
    for (const value of candidates) {
      const broken = structuredClone(item.doc)
      probe.set(broken, structuredClone(value))
      const dataset = seed.map((doc) => (doc._id === item.doc._id ? broken : doc))
      tried.push(JSON.stringify(value)?.slice(0, 60) ?? 'undefined')
      if (!(await breaksRule(item.spec, value, broken, dataset, item))) continue
      if (item.spec.level !== 'error') {
        // A warning is printed, names the document and field, and does not fail the build
        // (a value that also breaks an error rule proves nothing about the warning).
        const printed: string[] = []
        const failed = await assertValidSnapshot(dataset, (line) => printed.push(line)).then(
          () => false,
          () => true,
        )
        if (failed) continue
        expect(printed.join('\n')).toContain(
          `Content warning: document "${item.doc._id}", field "${probe.name}"`,
        )
        return
      }
      const error = await assertValidSnapshot(dataset, () => {}).then(
        () => new Error(`the build accepted ${tried.at(-1)} at ${item.doc._id}.${probe.name}`),
        (caught: unknown) => caught,
      )
      if (!(error instanceof ContentError)) throw error
      const named = error.problems.find(
        (problem) => problem.documentId === item.doc._id && namesField(problem.field, probe),
      )
      expect(named).toBeDefined()
      expect(error.message).toContain(
        `Invalid content: document "${item.doc._id}", field "${named!.field}": ${named!.problem}`,
      )
      return
    }
    throw new Error(
      `no value breaks this ${item.spec.flag} rule at ${item.doc._id}.${probe.name}; tried: ${tried.join(', ')}`,
    )
  },
)

test('a rule that would need the network fails the build loudly, offline', async () => {
  const client = snapshotClient(seed)
  expect(() => client.getDataUrl('doc')).toThrow(/needs the network/)
  await expect(client.fetch('count(*[_type == "caseStudy"])')).resolves.toBe(3)
  // Queries filtered by one type run over that type only; others over everything.
  await expect(
    client.fetch('*[_type == $t && slug.current == $s][0]._id', { t: 'caseStudy', s: 'um-al-hayaa' }),
  ).resolves.toBe('caseStudy-um-al-hayaa')
  await expect(client.fetch('count(*[_type == "review" || _type == "faq"])')).resolves.toBe(9)
  await expect(client.fetch('count(*[_type == "faq"]) + count(*[_type == "review"])')).resolves.toBe(9)
})
