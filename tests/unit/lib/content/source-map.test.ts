/**
 * @jest-environment node
 *
 * Click-to-edit offline: a Content Source Map computed for a local result
 * (lib/content/source-map.ts) maps each string to the document and field it came from, and
 * only when that is certain; the preview encodes local results with it exactly as Sanity's
 * client encodes the Content Lake's answer (lib/content/stega.ts), so both sources give an
 * editor the same edit links.
 */
import { vercelStegaCombine, vercelStegaDecode, vercelStegaDecodeAll, vercelStegaSplit } from '@vercel/stega'
import { stegaClean } from '@sanity/client/stega'
import { caseStudyCardsQuery, caseStudyQuery, homePageQuery, siteSettingsQuery } from '@/lib/content/queries'
import { localSourceMap, type SourceDocument } from '@/lib/content/source-map'
import { runQuery, type ContentSource, type StoredDocument } from '@/lib/content/source'
import { getCaseStudyCards, getPortfolioSites } from '@/lib/content'
import { seedDocuments, writeDataset } from '../../helpers/dataset'
import { standInSource, startSanityStandIn } from '../../helpers/sanityStandIn'

const seed = seedDocuments()
const settings = seed.find((doc) => doc._id === 'siteSettings')!
const study = seed.find((doc) => doc._type === 'caseStudy')! as StoredDocument & {
  slug: { current: string }
  issue: { _key: string; children: { _key: string; text: string }[] }[]
}

const byId = (docs: SourceDocument[]) => new Map(docs.map((doc) => [doc._id, doc]))

/** The edit link a string carries, as the overlays read it, or undefined for a clean string. */
function editLink(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const { encoded } = vercelStegaSplit(value)
  if (!encoded) return undefined
  return (vercelStegaDecode(encoded) as { href?: string } | undefined)?.href
}

/** The intent parameters of an edit link: `id`, `type` and `path` (decoded). */
function intent(href: string | undefined): Record<string, string> {
  const match = /\/intent\/edit\/([^?]*)/.exec(href ?? '')
  if (!match) return {}
  return Object.fromEntries(
    match[1]!.split(';').map((pair) => {
      const [key, value] = pair.split('=')
      return [key!, decodeURIComponent(value ?? '')]
    }),
  )
}

describe('localSourceMap', () => {
  const doc: SourceDocument = {
    _id: 'page',
    _type: 'page',
    _originalId: 'drafts.page',
    title: 'Welcome',
    points: ['Fast', 'Kind'],
    body: [{ _key: 'b1', _type: 'block', children: [{ _key: 's1', _type: 'span', text: 'Hello there' }] }],
    seo: { heading: 'Welcome again' },
    twice: ['Same', 'Same'],
  }

  it('maps fields, unkeyed lists by position and keyed items by key, to the draft that was shown', () => {
    const result = {
      _id: 'page',
      title: 'Welcome',
      points: ['Fast', 'Kind'],
      body: [{ _key: 'b1', _type: 'block', children: [{ _key: 's1', _type: 'span', text: 'Hello there' }] }],
    }
    const map = localSourceMap(result, byId([doc]))
    expect(map.documents).toEqual([{ _id: 'drafts.page', _type: 'page' }])
    const source = (resultPath: string) => {
      const mapping = map.mappings[resultPath]
      return mapping?.type === 'value' && mapping.source.type === 'documentValue'
        ? map.paths[mapping.source.path]
        : undefined
    }
    expect(source("$['title']")).toBe("$['title']")
    expect(source("$['points'][1]")).toBe("$['points'][1]")
    expect(source("$['body'][0]['children'][0]['text']")).toBe(
      "$['body'][?(@._key=='b1')]['children'][?(@._key=='s1')]['text']",
    )
  })

  it('maps a renamed or computed string only where it occurs once in its document; otherwise not at all', () => {
    const result = { _id: 'page', heading: 'Welcome again', label: 'Same', summary: 'Welcome. Fast.' }
    const map = localSourceMap(result, byId([doc]))
    expect(Object.keys(map.mappings)).toEqual(["$['heading']"])
    expect(map.paths).toEqual(["$['seo']['heading']"])
  })

  it('maps nothing of an object that names no document it read, nor a string that changed', () => {
    expect(localSourceMap({ title: 'Welcome' }, byId([doc])).mappings).toEqual({})
    expect(localSourceMap({ _id: 'page', title: 'Welcome!' }, byId([doc])).mappings).toEqual({})
    // A keyed item the document does not have: nothing under it is guessed at by position.
    const moved = { _id: 'page', body: [{ _key: 'zz', children: [{ _key: 's1', text: 'Hello there' }] }] }
    expect(Object.keys(localSourceMap(moved, byId([doc])).mappings)).toEqual([
      "$['body'][0]['children'][0]['text']",
    ])
  })
})

describe("the preview's local results carry edit links, as the Content Lake's do", () => {
  const studioUrl = '/studio'
  const local = (): ContentSource => ({
    ...writeDataset(seed),
    perspective: 'drafts',
    preview: true,
    stega: { studioUrl },
  })

  it('links each shown string to its document and field; addresses, ids, slugs and assets stay clean', async () => {
    const result = await runQuery(siteSettingsQuery, {}, local())
    expect(intent(editLink(result!.heroHeadline))).toMatchObject({
      id: 'siteSettings',
      type: 'siteSettings',
      path: 'heroHeadline',
    })
    expect(stegaClean(result!.heroHeadline)).toBe(settings.heroHeadline)
    expect(intent(editLink(result!.sellingPoints![0]))).toMatchObject({ path: 'sellingPoints[0]' })
    for (const clean of [
      result!.siteUrl,
      result!.bookingWidgetUrl,
      result!.contactWebhookUrl,
      result!._updatedAt,
      result!.heroImage!.asset!.url,
      result!.heroImage!.asset!.originalFilename,
      result!.heroImage!.asset!.extension,
    ])
      expect(editLink(clean)).toBeUndefined()
    // The image's alt text is the editor's words, linked to the image field's alt.
    expect(intent(editLink(result!.heroImage!.alt))).toMatchObject({ path: 'heroImage.alt' })
  })

  it("links a portable text span by its keys, and leaves a case study's slug clean", async () => {
    const result = await runQuery(caseStudyQuery, { slug: study.slug.current }, local())
    const block = study.issue[0]!
    expect(intent(editLink(result!.issue![0]!.children![0]!.text))).toMatchObject({
      id: study._id,
      type: 'caseStudy',
      path: `issue[_key=="${block._key}"].children[_key=="${block.children[0]!._key}"].text`,
    })
    expect(editLink(result!.slug)).toBeUndefined()
    expect(editLink(result!.legacyId)).toBeUndefined()
  })

  it('links a draft to the draft it shows, and the build (no stega) gets clean strings', async () => {
    const draft = { ...settings, _id: 'drafts.siteSettings', heroHeadline: 'A drafted headline' }
    const source = {
      ...writeDataset([...seed, draft]),
      perspective: 'drafts' as const,
      preview: true as const,
    }
    const encoded = await runQuery(siteSettingsQuery, {}, { ...source, stega: { studioUrl } })
    expect(stegaClean(encoded!.heroHeadline)).toBe('A drafted headline')
    expect(editLink(encoded!.heroHeadline)).toMatch(/id=siteSettings;/)
    // The client's edit URL opens the draft, not the published document.
    expect(editLink(encoded!.heroHeadline)).not.toMatch(/perspective=published/)
    const plain = await runQuery(siteSettingsQuery, {}, { ...writeDataset(seed), perspective: 'published' })
    expect(JSON.stringify(plain)).toBe(JSON.stringify(stegaClean(plain)))
  })

  it("gives the same encoded results as Sanity's client over the Content Lake (its stand-in, offline)", async () => {
    const draft = { ...settings, _id: 'drafts.siteSettings', heroHeadline: 'A drafted headline' }
    const documents = [...seed, draft]
    const lake = await startSanityStandIn(documents)
    try {
      const viaLake = standInSource(lake, { perspective: 'drafts', preview: true, stega: { studioUrl } })
      const viaFile: ContentSource = {
        ...writeDataset(documents),
        perspective: 'drafts',
        preview: true,
        stega: { studioUrl },
      }
      for (const query of [siteSettingsQuery, homePageQuery, caseStudyCardsQuery]) {
        const fromLake = await runQuery(query, {}, viaLake)
        const fromFile = await runQuery(query, {}, viaFile)
        expect(fromFile).toEqual(fromLake)
        expect(JSON.stringify(fromFile)).not.toBe(JSON.stringify(stegaClean(fromFile)))
      }
      // The client asked for the source map, as it does of the Lake when stega is on.
      expect(lake.calls.some((call) => call.search.resultSourceMap === 'withKeyArraySelector')).toBe(true)
    } finally {
      await lake.close()
    }
  })
})

test("computed strings link to their field by data-sanity in the preview, and the build's have none", async () => {
  const file = writeDataset(seed)
  const preview: ContentSource = {
    ...file,
    perspective: 'drafts',
    preview: true,
    stega: { studioUrl: '/studio' },
  }
  const [card] = await getCaseStudyCards(preview)
  expect(card!.issueSource).toBe(`id=${card!._id};type=caseStudy;path=issue;base=%2Fstudio`)
  const [site] = await getPortfolioSites(preview)
  expect(site!.urlSource).toBe(`id=${site!._id};type=portfolioSite;path=url;base=%2Fstudio`)
  const published: ContentSource = { ...file, perspective: 'published' }
  expect((await getCaseStudyCards(published))[0]).not.toHaveProperty('issueSource')
  expect((await getPortfolioSites(published))[0]).not.toHaveProperty('urlSource')
})

describe("a draft's own stega never reaches the overlays: every edit link is this site's Studio's", () => {
  const studioUrl = 'https://studio.example/studio'
  /** An invisible edit link of the draft's own, to another site, as @vercel/stega writes one. */
  const foreign = (text: string) =>
    vercelStegaCombine(text, { origin: 'sanity.io', href: 'https://evil.example/steal?from=' }, false)
  const block = study.issue[0]!
  const span = block.children[0]!
  const settingsDraft = {
    ...settings,
    _id: 'drafts.siteSettings',
    heroHeadline: foreign('A drafted headline'),
    // In the middle of the text, too.
    heroSubheadline: `${foreign('Half')} and half`,
  }
  const studyDraft = {
    ...study,
    _id: `drafts.${study._id}`,
    issue: [
      { ...block, children: [{ ...span, text: foreign(span.text) }, ...block.children.slice(1)] },
      ...study.issue.slice(1),
    ],
  }
  const documents = [...seed, settingsDraft, studyDraft]

  /** Each edit link in a string, decoded: there must be exactly one, ours. */
  const linksIn = (value: string | null | undefined) =>
    vercelStegaDecodeAll<{ origin?: string; href?: string }>(value ?? '') ?? []

  const expectOnlyOurs = (value: string | null | undefined, clean: string, path: string) => {
    expect(vercelStegaSplit(value ?? '').cleaned).toBe(clean)
    const links = linksIn(value)
    expect(links).toHaveLength(1)
    expect(links[0]!.origin).toBe('sanity.io')
    expect(links[0]!.href!.startsWith(`${studioUrl}/`)).toBe(true)
    expect(intent(links[0]!.href)).toMatchObject({ path })
  }

  const check = async (source: ContentSource) => {
    const shown = await runQuery(siteSettingsQuery, {}, source)
    expectOnlyOurs(shown!.heroHeadline, 'A drafted headline', 'heroHeadline')
    expectOnlyOurs(shown!.heroSubheadline, 'Half and half', 'heroSubheadline')
    const page = await runQuery(caseStudyQuery, { slug: study.slug.current }, source)
    expectOnlyOurs(
      page!.issue![0]!.children![0]!.text,
      span.text,
      `issue[_key=="${block._key}"].children[_key=="${span._key}"].text`,
    )
    // No string anywhere in the results links elsewhere.
    expect(JSON.stringify([shown, page])).not.toContain('evil.example')
    for (const href of JSON.stringify([shown, page]).match(/https?:\/\/[^"]*/g) ?? [])
      expect(href).not.toMatch(/evil/)
  }

  it('the local dataset', async () => {
    await check({ ...writeDataset(documents), perspective: 'drafts', preview: true, stega: { studioUrl } })
  })

  it('the Content Lake, answering the query itself (its stand-in, offline)', async () => {
    const lake = await startSanityStandIn(documents)
    try {
      await check(standInSource(lake, { perspective: 'drafts', preview: true, stega: { studioUrl } }))
      // The drafts were valid: the Lake ran the queries, and its source map was asked for.
      expect(lake.calls.some((call) => call.search.perspective === 'drafts')).toBe(true)
      expect(lake.calls.some((call) => call.search.resultSourceMap === 'withKeyArraySelector')).toBe(true)
    } finally {
      await lake.close()
    }
  })

  it('a preview of published content too, from either source (a published text can carry one as well)', async () => {
    const published = [
      ...seed.filter((doc) => doc._id !== settings._id),
      { ...settingsDraft, _id: settings._id },
    ]
    const preview = { perspective: 'published', preview: true, stega: { studioUrl } } as const
    const lake = await startSanityStandIn(published)
    try {
      for (const source of [{ ...writeDataset(published), ...preview }, standInSource(lake, preview)]) {
        const shown = await runQuery(siteSettingsQuery, {}, source)
        expectOnlyOurs(shown!.heroHeadline, 'A drafted headline', 'heroHeadline')
      }
    } finally {
      await lake.close()
    }
  })

  it('a preview read without stega gets the text clean', async () => {
    const source: ContentSource = { ...writeDataset(documents), perspective: 'drafts', preview: true }
    const shown = await runQuery(siteSettingsQuery, {}, source)
    expect(shown!.heroHeadline).toBe('A drafted headline')
    expect(shown!.heroSubheadline).toBe('Half and half')
  })
})
