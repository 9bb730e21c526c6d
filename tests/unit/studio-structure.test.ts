/**
 * @jest-environment node
 *
 * The Studio's structure and configuration (studio/structure.ts, studio/sanity.config.ts):
 * site settings on top as a singleton, then one list per document type sorted by `order`.
 */
import type { StructureResolver } from 'sanity/structure'
import { createStudioConfig } from '@/studio/sanity.config'
import { schemaTypes } from '@/studio/schemaTypes'
import { ORDER_ASC } from '@/studio/schemaTypes/orderField'
import { CONTENT_LISTS, structure } from '@/studio/structure'
import { recordingStructureBuilder, type BuilderNode } from './helpers/sanityStub'

jest.mock('sanity', () => jest.requireActual('./helpers/sanityStub').sanity)
jest.mock('sanity/structure', () => jest.requireActual('./helpers/sanityStub').sanityStructure)

type SchemaType = { name: string; type: string; fields?: { name: string }[]; orderings?: unknown[] }
const types = schemaTypes as SchemaType[]
const documentTypes = types.filter((type) => type.type === 'document').map((type) => type.name)

function buildRoot(resolver: StructureResolver = structure) {
  const root = resolver(recordingStructureBuilder() as never, {} as never) as BuilderNode
  return { root, items: root.calls.items![0] as BuilderNode[] }
}

describe('the Structure tool', () => {
  test('site settings is the first item: the one fixed document, opened directly', () => {
    const { root, items } = buildRoot()
    expect(root.builder).toBe('list')
    expect(root.calls.title).toEqual(['Content'])
    const [settings, divider] = items
    expect(settings!.builder).toBe('listItem')
    expect(settings!.calls.id).toEqual(['siteSettings'])
    expect(settings!.calls.title).toEqual(['Site settings'])
    const document = settings!.calls.child![0] as BuilderNode
    expect(document.builder).toBe('document')
    expect(document.calls.schemaType).toEqual(['siteSettings'])
    expect(document.calls.documentId).toEqual(['siteSettings'])
    expect(divider!.builder).toBe('divider')
  })

  test('then one list per document type, each sorted by the order field, lowest first', () => {
    const { items } = buildRoot()
    const lists = items.slice(2)
    expect(lists.map((item) => item.args[0])).toEqual(CONTENT_LISTS.map(({ type }) => type))
    for (const item of lists) {
      expect(item.builder).toBe('documentTypeListItem')
      const list = item.calls.child![0] as BuilderNode
      expect(list.builder).toBe('documentTypeList')
      expect(list.args).toEqual(item.args)
      expect(list.calls.defaultOrdering).toEqual([[{ field: 'order', direction: 'asc' }]])
    }
  })

  test('every document type but the singleton has exactly one list, and each has an order field', () => {
    expect(CONTENT_LISTS.map(({ type }) => type).sort()).toEqual(
      documentTypes.filter((name) => name !== 'siteSettings').sort(),
    )
    for (const { type } of CONTENT_LISTS) {
      const schemaType = types.find((candidate) => candidate.name === type)!
      expect(schemaType.fields!.map((field) => field.name)).toContain('order')
    }
  })

  test("each ordered type offers 'Order on the site' in its list's sort menu", () => {
    for (const { type } of CONTENT_LISTS) {
      const schemaType = types.find((candidate) => candidate.name === type)!
      expect(schemaType.orderings).toContainEqual({
        title: 'Order on the site',
        name: 'orderAsc',
        by: ORDER_ASC,
      })
    }
  })
})

describe('the Studio configuration', () => {
  type Resolved = {
    projectId: string
    dataset: string
    basePath: string
    plugins: { options: { structure: StructureResolver } }[]
    schema: { types: unknown; templates: (templates: { schemaType: string }[]) => { schemaType: string }[] }
    document: {
      actions: (actions: { action?: string }[], context: { schemaType: string }) => { action?: string }[]
    }
  }
  const resolve = (...args: Parameters<typeof createStudioConfig>) =>
    createStudioConfig(...args) as unknown as Resolved

  test('standalone by default; under /studio when the site embeds it', () => {
    expect(resolve({ projectId: 'abc12345' })).toMatchObject({
      projectId: 'abc12345',
      dataset: 'production',
      basePath: '/',
    })
    expect(resolve({ projectId: 'abc12345', dataset: 'staging', basePath: '/studio' })).toMatchObject({
      dataset: 'staging',
      basePath: '/studio',
    })
  })

  test('uses this structure and the schema types', () => {
    const config = resolve({ projectId: 'abc12345' })
    expect(config.plugins[0]!.options.structure).toBe(structure)
    expect(config.schema.types).toBe(schemaTypes)
  })

  test('site settings cannot be created, deleted, duplicated or unpublished', () => {
    const config = resolve({ projectId: 'abc12345' })
    expect(config.schema.templates([{ schemaType: 'siteSettings' }, { schemaType: 'review' }])).toEqual([
      { schemaType: 'review' },
    ])
    const actions = ['publish', 'discardChanges', 'duplicate', 'delete', 'unpublish'].map((action) => ({
      action,
    }))
    expect(
      config.document.actions(actions, { schemaType: 'siteSettings' }).map(({ action }) => action),
    ).toEqual(['publish', 'discardChanges'])
    expect(config.document.actions(actions, { schemaType: 'review' })).toHaveLength(5)
  })
})
