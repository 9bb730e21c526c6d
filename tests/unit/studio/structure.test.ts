/**
 * @jest-environment node
 *
 * The Studio's desk as an editor sees it (studio/structure.ts, studio/sanity.config.ts),
 * built by Sanity itself: the real `sanity` package resolves the Studio configuration
 * (schema, plugins, templates, document actions) into a workspace, and Sanity's own
 * structure builder serialises the structure and opens its items, as the Structure
 * tool does. Titles are read through the Studio's English locale. The Sanity client
 * points at a local stand-in, so nothing leaves the machine.
 */
import { createClient } from '@sanity/client'
import { createWorkspaceFromConfig, getConfigContextFromSource, type Source, type Workspace } from 'sanity'
import { createStructureBuilder, type StructureResolver } from 'sanity/structure'
import { createStudioConfig, type StudioOptions } from '@/studio/sanity.config'
import { startSanityStandIn, type StandIn } from '../helpers/sanityStandIn'

/** A pane or menu entry as the builder serialises it (the fields read here). */
type Serialized = {
  id: string
  type: string
  title?: string
  i18n?: { title?: { key: string; ns: string } }
  schemaTypeName?: string
  options?: {
    id?: string
    type?: string
    filter?: string
    params?: Record<string, unknown>
    defaultOrdering?: unknown
  }
  items?: Serialized[]
  menuItems?: (Serialized & { group?: string; params?: { by?: unknown } })[]
  initialValueTemplates?: { templateId: string }[]
  child?: unknown
}
type ResolveChild = (id: string, context: object) => Serialized | { serialize: (o: object) => Serialized }

let standIn: StandIn
beforeAll(async () => {
  standIn = await startSanityStandIn([])
})
afterAll(() => standIn.close())

/** The Studio this site ships, resolved by Sanity for a signed-in administrator. */
async function openStudio(options: StudioOptions = { projectId: 'abc12345' }) {
  const client = createClient({
    projectId: options.projectId,
    dataset: options.dataset ?? 'production',
    apiVersion: '2025-02-19',
    apiHost: standIn.url,
    useProjectHostname: false,
    useCdn: false,
    // Sanity asks for the project's grants in the background; the answer or a refused
    // connection (after the stand-in closes) settles it at once, without retry timers.
    maxRetries: 0,
  })
  const workspace: Workspace = await createWorkspaceFromConfig({
    ...createStudioConfig(options),
    getClient: (clientOptions) => client.withConfig(clientOptions),
    currentUser: {
      id: 'editor',
      name: 'Editor',
      email: 'editor@example.com',
      role: 'administrator',
      roles: [{ name: 'administrator', title: 'Administrator' }],
    },
  } as Parameters<typeof createWorkspaceFromConfig>[0])
  const source: Source = workspace.unstable_sources[0]!
  await source.i18n.loadNamespaces(['studio', 'structure'])
  return { workspace, source }
}

/** The Structure tool's root pane, built by Sanity's builder from the configured resolver. */
async function openDesk() {
  const { workspace, source } = await openStudio()
  const tool = workspace.tools.find(({ name }) => name === 'structure')!
  const resolver = (tool.options as { structure: StructureResolver }).structure
  // The Studio's default perspective: drafts over published documents.
  const perspectiveStack = ['drafts']
  const S = createStructureBuilder({ source, perspectiveStack })
  // The resolver's context as the Structure tool gives it (no document store: nothing is fetched).
  const context = { ...getConfigContextFromSource(source), perspectiveStack }
  const root = (
    resolver(S, context as Parameters<StructureResolver>[1]) as {
      serialize: (o: object) => Serialized
    }
  ).serialize({ path: [] })
  /** Opens an item of the root pane, as clicking it does. */
  const open = async (id: string): Promise<Serialized> => {
    const child = await (root as unknown as { child: ResolveChild }).child(id, {
      parent: root,
      index: root.items!.findIndex((item) => item.id === id),
      splitIndex: 0,
      path: [],
      params: {},
      serializeOptions: { path: [] },
    })
    return 'serialize' in child ? child.serialize({ path: [] }) : child
  }
  /** A title as the Studio displays it: its translation when it has one. */
  const read = (entry: Serialized) =>
    entry.i18n?.title ? source.i18n.t(entry.i18n.title.key, { ns: entry.i18n.title.ns }) : entry.title
  return { root, open, read, source }
}

const LISTS = [
  ['service', 'Services'],
  ['audienceCard', 'Audience cards'],
  ['growthItem', 'Growth items'],
  ['caseStudy', 'Case studies'],
  ['review', 'Reviews'],
  ['faq', 'FAQs'],
  ['portfolioSite', 'Portfolio sites'],
] as const

describe('the Structure tool', () => {
  test('the desk: Content, site settings on top, a divider, then one list per type in site order', async () => {
    const { root } = await openDesk()
    expect(root.title).toBe('Content')
    expect(root.items!.map((item) => (item.type === 'divider' ? '—' : item.title))).toEqual([
      'Site settings',
      '—',
      ...LISTS.map(([, title]) => title),
    ])
  })

  test('site settings opens the one settings document directly, not a list', async () => {
    const { open } = await openDesk()
    const pane = await open('siteSettings')
    expect(pane).toMatchObject({
      type: 'document',
      title: 'Site settings',
      options: { id: 'siteSettings', type: 'siteSettings' },
    })
  })

  test.each(LISTS)(
    '%s: its list, titled as in the desk, sorted by the order field, lowest first',
    async (type, title) => {
      const { open, read } = await openDesk()
      const pane = await open(type)
      expect(pane).toMatchObject({
        type: 'documentList',
        title,
        schemaTypeName: type,
        options: {
          filter: '_type == $type',
          params: { type },
          defaultOrdering: [{ field: 'order', direction: 'asc' }],
        },
      })
      // The list's sort menu offers the site's order first (Sanity's own options follow it).
      const [first] = pane.menuItems!.filter((item) => item.group === 'sorting')
      expect(read(first!)).toBe('Sort by Order on the site')
      expect(first!.params!.by).toEqual([{ field: 'order', direction: 'asc' }])
      // "Create new" in the list makes a document of this type.
      expect(pane.initialValueTemplates!.map(({ templateId }) => templateId)).toEqual([type])
    },
  )

  test('every document type of the schema is in the desk: the settings item or a list', async () => {
    const { root, source } = await openDesk()
    const documentTypes = source.schema
      .getTypeNames()
      .filter((name) => !name.startsWith('sanity.') && source.schema.get(name)?.type?.name === 'document')
    const inDesk = root
      .items!.filter((item) => item.type !== 'divider')
      .map((item) => (item.child as Serialized).schemaTypeName ?? (item.child as Serialized).options!.type)
    expect(inDesk.sort()).toEqual(documentTypes.sort())
  })
})

describe('the Studio configuration, as Sanity resolves it', () => {
  test('standalone by default; under /studio, on the given dataset, when the site embeds it', async () => {
    expect((await openStudio()).workspace).toMatchObject({
      projectId: 'abc12345',
      dataset: 'production',
      basePath: '/',
    })
    expect(
      (await openStudio({ projectId: 'abc12345', dataset: 'staging', basePath: '/studio' })).workspace,
    ).toMatchObject({ projectId: 'abc12345', dataset: 'staging', basePath: '/studio' })
  })

  test('"Create new" offers every type except site settings', async () => {
    const { source } = await openStudio()
    expect(source.templates.map(({ schemaType }) => schemaType)).toEqual(LISTS.map(([type]) => type))
  })

  test('site settings can be published and its changes discarded, but not deleted, duplicated or unpublished', async () => {
    const { source } = await openStudio()
    const actionsOf = (schemaType: string) =>
      source.document
        .actions({ schemaType, documentId: `${schemaType}-1` } as Parameters<
          Source['document']['actions']
        >[0])
        .map(({ action }) => action)
    const settings = actionsOf('siteSettings')
    expect(settings).toEqual(expect.arrayContaining(['publish', 'discardChanges']))
    for (const action of ['delete', 'duplicate', 'unpublish']) {
      expect(settings).not.toContain(action)
      expect(actionsOf('review')).toContain(action)
    }
  })
})

test('the Studio has the Preview tool beside the desk, with or without a publisher', async () => {
  for (const publisherUrl of ['', 'https://site.example', undefined]) {
    const { workspace } = await openStudio({ projectId: 'abc12345', publisherUrl })
    // Sanity adds its own tools (Releases, Schedules) after the configured ones.
    expect([publisherUrl, workspace.tools.slice(0, 2).map(({ name, title }) => `${name}: ${title}`)]).toEqual(
      [publisherUrl, ['structure: Structure', 'preview: Preview']],
    )
  }
})
