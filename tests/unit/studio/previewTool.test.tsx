/**
 * @jest-environment node
 *
 * The Studio's Preview tool (studio/previewTool.tsx, studio/locations.ts): where each
 * document shows on the site, and the tool a Studio gets with and without a publisher.
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { ThemeProvider } from '@sanity/ui'
import { buildTheme } from '@sanity/ui/theme'
import { renderToStaticMarkup } from 'react-dom/server'
import type { DocumentLocationResolverObject, DocumentLocationsState } from 'sanity/presentation'
import type { Tool } from 'sanity'
import { DEFAULT_LOCAL_DATASET, parseNdjson, type StoredDocument } from '@/lib/content/source'
import { schemaTypes } from '@/studio/schemaTypes/index.ts'
import { locations } from '@/studio/locations'
import { SITE_PAGES } from '@/studio/schemaTypes/sitePages'
import { PREVIEW_TOOL, previewTool } from '@/studio/previewTool'

type Doc = StoredDocument
const seed = parseNdjson(readFileSync(DEFAULT_LOCAL_DATASET, 'utf8'), DEFAULT_LOCAL_DATASET)

/** A document's locations as Presentation resolves them: its `select` paths read from the document. */
function locationsOf(doc: Doc): DocumentLocationsState {
  const entry = locations[doc._type]
  if (!entry) throw new Error(`no locations for ${doc._type}`)
  if (!('select' in entry)) return entry as DocumentLocationsState
  const resolver = entry as DocumentLocationResolverObject
  const read = (dotted: string) =>
    dotted.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown>)?.[key], doc)
  const selected = Object.fromEntries(
    Object.entries(resolver.select).map(([key, dotted]) => [key, read(dotted)]),
  )
  return resolver.resolve(selected) ?? {}
}

/** Whether the site has a route segment for a path (app/…/page.tsx, a [slug] segment matching any slug). */
function routeExists(href: string): boolean {
  const segments = href.split(/[?#]/)[0]!.split('/').filter(Boolean)
  // The site's pages are in its route group (the Studio has a root layout of its own).
  let dir = path.join('app', '(site)')
  for (const segment of segments) {
    if (existsSync(path.join(dir, segment))) dir = path.join(dir, segment)
    else if (existsSync(path.join(dir, '[slug]'))) dir = path.join(dir, '[slug]')
    else return false
  }
  return existsSync(path.join(dir, 'page.tsx'))
}

describe('resolve.locations', () => {
  test('every document schema type has its pages', () => {
    const documentTypes = schemaTypes.filter((type) => type.type === 'document').map((type) => type.name)
    expect(Object.keys(locations).sort()).toEqual([...documentTypes].sort())
  })

  test('every location of every seed document is a page of the site', () => {
    const documents = seed.filter((doc) => doc._type in locations && !doc._id.startsWith('drafts.'))
    expect(new Set(documents.map((doc) => doc._type)).size).toBe(Object.keys(locations).length)
    for (const doc of documents) {
      const found = locationsOf(doc).locations ?? []
      expect([doc._id, found.length > 0]).toEqual([doc._id, true])
      for (const location of found)
        expect([doc._id, location.href, routeExists(location.href)]).toEqual([doc._id, location.href, true])
    }
  })

  test('a case study: its own page, the list and the home page teaser; site settings: every page', () => {
    const study = seed.find((doc) => doc._type === 'caseStudy')!
    const slug = (study.slug as { current: string }).current
    expect(locationsOf(study).locations!.map((location) => location.href)).toEqual([
      `/case-studies/${slug}`,
      '/case-studies',
      '/',
    ])
    expect(locationsOf({ _id: 'new', _type: 'caseStudy' }).locations!.map((l) => l.href)).toEqual([
      '/case-studies',
      '/',
    ])
    const settings = locationsOf(seed.find((doc) => doc._type === 'siteSettings')!)
    expect(settings.locations).toEqual(Object.values(SITE_PAGES).map(({ title, href }) => ({ title, href })))
    expect(locationsOf({ _id: 'r', _type: 'review' })).toMatchObject({ tone: 'caution' })
  })
})

describe('the plugin', () => {
  test('a Studio with no publisher gets a Preview tool that says how to set one', () => {
    const plugin = previewTool(undefined)
    const [only] = plugin.tools as Tool[]
    expect(only).toMatchObject(PREVIEW_TOOL)
    const Component = only!.component
    const html = renderToStaticMarkup(
      <ThemeProvider theme={buildTheme()}>
        <Component tool={only!} />
      </ThemeProvider>,
    )
    expect(html).toMatch(/<h1[^>]*><span>Preview needs the publisher<\/span><\/h1>/)
    expect(html).toContain('<code>SANITY_STUDIO_PUBLISHER_URL=https://www.example.co.uk</code>')
  })

  test("with a publisher it is Sanity's Presentation tool, behind the publisher check", () => {
    const plugin = previewTool('https://site.example/')
    const [presentation] = plugin.tools as (Tool & { __internalApplicationType?: string })[]
    expect(presentation).toMatchObject({ ...PREVIEW_TOOL, __internalApplicationType: 'sanity/presentation' })
    expect(presentation!.options).toMatchObject({
      previewUrl: { initial: 'https://site.example', previewMode: { enable: '/preview/enable' } },
      resolve: { locations },
    })
    expect(presentation!.component.name).toBe('PreviewScreen')
  })
})
