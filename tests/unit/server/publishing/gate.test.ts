/**
 * @jest-environment node
 *
 * The publish gate (server/publishing/gate.ts) on small builds written here: which pages it
 * checks, the links and assets it resolves, and what it says when one is missing, naming
 * the documents of the build's page documents (lib/page-documents.ts).
 */
import { cpSync, mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { REDIRECTS_FILE } from '@/lib/build-output'
import { caseStudyPageDocuments, PAGE_DOCUMENTS_FILE, readPageDocuments } from '@/lib/page-documents'
import { caseStudyRedirects } from '@/site-build/redirects-file'
import { checkCandidate, sitePathsOf } from '@/server/publishing/gate'

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title>` +
  `<link rel="icon" href="/icon.svg?v=1"></head><body>${body}</body></html>\n`

/** `files` without one of them. */
const without = (files: Record<string, string>, name: string) =>
  Object.fromEntries(Object.entries(files).filter(([file]) => file !== name))

/** A build folder with `files` (relative path -> text). */
function build(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gate-'))
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    writeFileSync(path.join(dir, file), text)
  }
  return dir
}

const site = {
  'index.html': page(
    '<a href="/case-studies/a">A</a> <a href="/#contact">Contact</a> <a href="/booking/">Book</a>',
  ),
  'case-studies/a.html': page('<img src="/media/a.svg" alt="a"> <a href="https://example.com/x">out</a>'),
  'booking/index.html': page('<p>Booking</p>'),
  'media/a.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  'icon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
}

test('same-site paths of a page: links, images, srcset and scripts; not other sites, queries or hashes', () => {
  const html = page(
    '<a href="/a?x=1#y">a</a><a href="//evil.example/b">b</a><a href="https://x.example/c">c</a>' +
      '<img src="/m/1.webp" srcset="/m/1.webp 480w, /m/2.webp 800w" alt=""><script src="/_next/static/x.js"></script>' +
      '<a href="mailto:hi@example.com">mail</a><a href="#top">top</a>',
  )
  expect(sitePathsOf(html).sort()).toEqual(
    ['/_next/static/x.js', '/a', '/icon.svg', '/m/1.webp', '/m/2.webp'].sort(),
  )
})

test('a build whose links all resolve passes; with nothing live every page is changed', async () => {
  const result = await checkCandidate(build(site), null, { html: false })
  expect(result.problems).toEqual([])
  expect(result.pages.sort()).toEqual(['/', '/booking/', '/case-studies/a'])
  expect(result.linkedPages).toBe(3)
})

test('a link to a page that does not exist keeps the build from going live, naming both pages', async () => {
  const live = build(site)
  const candidate = build({ ...site, 'case-studies/a.html': page('<a href="/case-studies/nope">more</a>') })
  const result = await checkCandidate(candidate, live, { html: false })
  expect(result.pages).toEqual(['/case-studies/a'])
  expect(result.problems).toEqual(['/case-studies/a links to /case-studies/nope, which does not exist'])
})

test('a missing image or srcset copy is found too', async () => {
  const candidate = build({
    ...site,
    'index.html': page(
      '<img src="/media/gone.svg" alt=""><img src="/media/a.svg" srcset="/media/a-800w.webp 800w" alt="">',
    ),
  })
  const result = await checkCandidate(candidate, build(site), { html: false })
  expect(result.problems).toEqual([
    '/ links to /media/gone.svg, which does not exist',
    '/ links to /media/a-800w.webp, which does not exist',
  ])
})

/** Two case studies, A's text linking to B's page; the list links to both. */
const twoStudies = {
  ...site,
  'index.html': page('<a href="/case-studies/a">A</a> <a href="/case-studies/b">B</a>'),
  'case-studies/a.html': page('<p>Read <a href="/case-studies/b#outcome">how B did it</a>.</p>'),
  'case-studies/b.html': page('<p>B</p>'),
  [PAGE_DOCUMENTS_FILE]: JSON.stringify(
    caseStudyPageDocuments([
      { _id: 'caseStudy-a', slug: 'a', legacyId: 'a' },
      { _id: 'caseStudy-b', slug: 'b', legacyId: 'Case B' },
    ]),
  ),
}

/** The same site with case study B unpublished: its page is gone, the list no longer links to it. */
function withoutB(): Record<string, string> {
  return {
    ...without(twoStudies, 'case-studies/b.html'),
    'index.html': page('<a href="/case-studies/a">A</a>'),
    [PAGE_DOCUMENTS_FILE]: JSON.stringify(
      caseStudyPageDocuments([{ _id: 'caseStudy-a', slug: 'a', legacyId: 'a' }]),
    ),
  }
}

test('an unchanged page whose link broke fails the gate: unpublishing B, linked from A', async () => {
  const live = build(twoStudies)
  const candidate = build(withoutB())
  // A's page is byte for byte the live one: only the list changed.
  cpSync(path.join(live, 'case-studies/a.html'), path.join(candidate, 'case-studies/a.html'))
  const result = await checkCandidate(candidate, live, { html: false })
  expect(result.pages).toEqual(['/'])
  expect(result.linkedPages).toBe(3)
  expect(result.problems).toEqual([
    '/case-studies/a (document "caseStudy-a") links to /case-studies/b, which does not exist' +
      ' (on the live site, the page of document "caseStudy-b")',
  ])
})

test('each line names the documents whose page links, in the form content errors use', async () => {
  const candidate = build({
    ...withoutB(),
    'case-studies/a.html': page('<a href="/case-studies/nope">nope</a>'),
    'case-studies/Case A.html': page('<a href="/case-studies/nope">nope</a>'),
    [PAGE_DOCUMENTS_FILE]: JSON.stringify({
      ...caseStudyPageDocuments(
        [{ _id: 'caseStudy-a', slug: 'a', legacyId: 'Case A' }],
        caseStudyRedirects([{ _id: 'caseStudy-a', slug: 'a', legacyId: 'Case A' }]).redirects,
      ),
      '/booking/': ['one', 'two'],
    }),
    'booking/index.html': page('<img src="/media/none.svg" alt="">'),
  })
  const result = await checkCandidate(candidate, null, { html: false })
  expect(result.problems).toEqual([
    '/booking/ (document "one", document "two") links to /media/none.svg, which does not exist',
    '/case-studies/Case%20A (document "caseStudy-a") links to /case-studies/nope, which does not exist',
    '/case-studies/a (document "caseStudy-a") links to /case-studies/nope, which does not exist',
  ])
  // What the Studio filters a document's lines by.
  for (const line of result.problems.slice(1)) expect(line).toContain('document "caseStudy-a"')
})

test('a build without page documents (an older one) still names the page, and fails nothing more', async () => {
  const olderLive = without(twoStudies, PAGE_DOCUMENTS_FILE)
  const older = without(withoutB(), PAGE_DOCUMENTS_FILE)
  const result = await checkCandidate(build(older), build(olderLive), { html: false })
  expect(result.problems).toEqual(['/case-studies/a links to /case-studies/b, which does not exist'])
  const fixed = { ...older, 'case-studies/a.html': page('<p>No link now.</p>') }
  expect(await checkCandidate(build(fixed), build(olderLive), { html: false })).toMatchObject({
    problems: [],
  })
})

test('page documents: a case study has its slug page and the page at each old address; unreadable is none', async () => {
  const studies = [
    { _id: 'caseStudy-x', slug: 'x', legacyId: 'Old X' },
    { _id: 'caseStudy-y', slug: 'y', legacyId: 'y' },
  ]
  expect(caseStudyPageDocuments(studies)).toEqual({
    '/case-studies/x': ['caseStudy-x'],
    '/case-studies/y': ['caseStudy-y'],
  })
  expect(caseStudyPageDocuments(studies, caseStudyRedirects(studies).redirects)).toEqual({
    '/case-studies/x': ['caseStudy-x'],
    '/case-studies/Old%20X': ['caseStudy-x'],
    '/case-studies/y': ['caseStudy-y'],
  })
  expect(await readPageDocuments(build({}))).toBeNull()
  expect(await readPageDocuments(build({ [PAGE_DOCUMENTS_FILE]: '{"/x": "not a list"}' }))).toBeNull()
  expect(await readPageDocuments(build({ [PAGE_DOCUMENTS_FILE]: '{"/x": ["a"]}' }))).toEqual({ '/x': ['a'] })
})

test("a link to an old address passes: the build's redirects resolve it, with or without its small page", async () => {
  const studies = [{ _id: 'caseStudy-b', slug: 'b', legacyId: 'Case B' }]
  const files = {
    ...site,
    'case-studies/a.html': page('<a href="/case-studies/Case%20B">B, by its legacy id</a>'),
    'case-studies/b.html': page('<p>B</p>'),
    [REDIRECTS_FILE]: JSON.stringify(caseStudyRedirects(studies)),
  }
  // A disk that ignores case, or an address no file name can hold: no small page, the redirect alone.
  expect((await checkCandidate(build(files), null, { html: false })).problems).toEqual([])
  // Without the redirects (an older build, a hand-made one), the link leads nowhere.
  expect(
    (await checkCandidate(build(without(files, REDIRECTS_FILE)), null, { html: false })).problems,
  ).toEqual(['/case-studies/a links to /case-studies/Case%20B, which does not exist'])
})

test('a page equal to the live one is not sent to the HTML checker; its links are still checked', async () => {
  const live = build({ ...site, 'case-studies/a.html': page('<a href="/gone">kept from before</a>') })
  const candidate = build({ ...site, 'case-studies/a.html': page('<a href="/gone">kept from before</a>') })
  cpSync(path.join(live, 'case-studies/a.html'), path.join(candidate, 'case-studies/a.html'))
  const result = await checkCandidate(candidate, live, { html: true })
  expect(result.pages).toEqual([])
  expect(result.problems).toEqual(['/case-studies/a links to /gone, which does not exist'])
})

// Java is there wherever `npm test` runs (audit:fast needs it too).
test('with the Nu HTML checker, invalid HTML on a changed page fails the gate', async () => {
  const candidate = build({ ...site, 'index.html': page('<p><div>block in a paragraph</p></div>') })
  const result = await checkCandidate(candidate, build(site), { html: true })
  expect(result.problems.length).toBeGreaterThan(0)
  expect(result.problems[0]).toMatch(/^\/ is not valid HTML: /)
}, 30_000)
