/**
 * @jest-environment node
 */
/**
 * Old case-study addresses (site-build/redirects-file.ts): which old address goes where
 * (legacy ids, slugs carried forward from the live build: no shadowing, no chains), the
 * `_redirects` lines, the small page at each old address, what `finalizeExport` writes,
 * and the build's postbuild step given the live build (PREVIOUS_BUILD_DIR), run for real.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {
  indexSite,
  readRedirects,
  REDIRECTS_FILE,
  resolvePath,
  siteIndexOf,
  type RedirectsManifest,
} from '@/lib/build-output'
import { checkHtml } from '@/server/publishing/nu-html-checker'
import { caseStudyPageDocuments, readPageDocuments } from '@/lib/page-documents'
import { finalizeExport, postbuildStep } from '@/site-build/finalize'
import {
  caseStudyPath,
  caseStudyRedirects,
  redirectPage,
  redirectsFile,
  writeRedirectPages,
} from '@/site-build/redirects-file'
import { headersFor, loadHeaderRules } from '@/server/serving/headers-file'
import { seedDocuments } from '../helpers/dataset'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'redirects-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const write = (root: string, file: string, text: string) => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
  writeFileSync(path.join(root, file), text)
}

const osteopath = { _id: 'caseStudy-osteopath', slug: 'osteopath-lancing', legacyId: 'Osteopath Lancing' }
const hours = { _id: 'caseStudy-hours', slug: 'how-i-saved-40-hours', legacyId: 'How-I-Saved-40-Hours' }
const fresh = { _id: 'caseStudy-fresh', slug: 'fresh', legacyId: 'fresh' }
const siteUrl = 'https://www.example.co.uk'
const page = (title: string) =>
  `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1></body></html>`

/** One build after another: each build's manifest is the next one's history. */
function builds(...studiesPerBuild: (typeof osteopath)[][]): RedirectsManifest {
  let previous: RedirectsManifest | null = null
  for (const studies of studiesPerBuild) previous = caseStudyRedirects(studies, previous)
  return previous!
}
const pairs = (manifest: RedirectsManifest) => manifest.redirects.map(({ from, to }) => [from, to])

describe('caseStudyPath: the address as a browser sends it', () => {
  test.each([
    ['osteopath-lancing', '/case-studies/osteopath-lancing'],
    ['Osteopath Lancing', '/case-studies/Osteopath%20Lancing'],
    ['Café Ünal', '/case-studies/Caf%C3%A9%20%C3%9Cnal'],
    ['50% off?', '/case-studies/50%25%20off%3F'],
    ['a/b#c', '/case-studies/a%2Fb%23c'],
    ["Bob's: (new)", "/case-studies/Bob's:%20(new)"],
    [' Spaced out ', '/case-studies/%20Spaced%20out%20'],
  ])('%s -> %s', (segment, address) => {
    expect(caseStudyPath(segment)).toBe(address)
    expect(new URL(address, siteUrl).pathname).toBe(address) // what a browser's request carries
  })

  test('no address for what a URL cannot name', () => {
    for (const segment of ['', '.', '..']) expect(caseStudyPath(segment)).toBeNull()
  })
})

describe('caseStudyRedirects: which old address goes where', () => {
  test("each legacy id that is not the slug leads to the slug's page; the pages are listed by _id", () => {
    expect(caseStudyRedirects([osteopath, hours, fresh])).toEqual({
      pages: {
        'caseStudy-osteopath': '/case-studies/osteopath-lancing',
        'caseStudy-hours': '/case-studies/how-i-saved-40-hours',
        'caseStudy-fresh': '/case-studies/fresh',
      },
      redirects: [
        {
          from: '/case-studies/How-I-Saved-40-Hours',
          to: '/case-studies/how-i-saved-40-hours',
          _id: 'caseStudy-hours',
        },
        {
          from: '/case-studies/Osteopath%20Lancing',
          to: '/case-studies/osteopath-lancing',
          _id: 'caseStudy-osteopath',
        },
      ],
    })
  })

  test('a slug an editor changed keeps its old address, redirected to the new page', () => {
    const renamed = { ...osteopath, slug: 'osteopath-in-lancing' }
    expect(pairs(builds([osteopath, fresh], [renamed, fresh]))).toEqual([
      ['/case-studies/Osteopath%20Lancing', '/case-studies/osteopath-in-lancing'],
      ['/case-studies/osteopath-lancing', '/case-studies/osteopath-in-lancing'],
    ])
  })

  test('no chains: a slug changed twice leads both old slugs straight to the newest page', () => {
    const b = { ...fresh, slug: 'b' }
    const c = { ...fresh, slug: 'c' }
    const manifest = builds([fresh], [b], [c])
    expect(pairs(manifest)).toEqual([
      ['/case-studies/b', '/case-studies/c'],
      ['/case-studies/fresh', '/case-studies/c'],
    ])
    const froms = new Set(manifest.redirects.map((redirect) => redirect.from))
    for (const redirect of manifest.redirects) expect(froms.has(redirect.to)).toBe(false)
    // Changing it back: its page again, not a redirect to itself.
    expect(pairs(builds([fresh], [b], [c], [fresh]))).toEqual([
      ['/case-studies/b', '/case-studies/fresh'],
      ['/case-studies/c', '/case-studies/fresh'],
    ])
  })

  test("an old slug never shadows another case study's slug or legacy id, in that build or later", () => {
    const renamed = { ...osteopath, slug: 'osteopath-in-lancing' }
    const takesSlug = { _id: 'caseStudy-other', slug: 'osteopath-lancing', legacyId: 'osteopath-lancing' }
    const takesLegacyId = { _id: 'caseStudy-other', slug: 'other', legacyId: 'osteopath-lancing' }
    // A new case study takes the old slug as its slug: its page, not a redirect.
    expect(pairs(builds([osteopath], [renamed, takesSlug]))).toEqual([
      ['/case-studies/Osteopath%20Lancing', '/case-studies/osteopath-in-lancing'],
    ])
    // ... or as its legacy id: its own redirect, to its own page.
    expect(pairs(builds([osteopath], [renamed, takesLegacyId]))).toEqual([
      ['/case-studies/Osteopath%20Lancing', '/case-studies/osteopath-in-lancing'],
      ['/case-studies/osteopath-lancing', '/case-studies/other'],
    ])
    // The address is the other one's now: when that one lets it go, it leads to the other.
    const movesOn = { ...takesSlug, slug: 'other-again', legacyId: 'other-again' }
    expect(pairs(builds([osteopath], [renamed, takesSlug], [renamed, movesOn]))).toEqual([
      ['/case-studies/Osteopath%20Lancing', '/case-studies/osteopath-in-lancing'],
      ['/case-studies/osteopath-lancing', '/case-studies/other-again'],
    ])
  })

  test('a changed legacy id keeps the old one; a case study that is gone takes its addresses with it', () => {
    const newLegacy = { ...osteopath, legacyId: 'Osteopath Clinic' }
    expect(pairs(builds([osteopath], [newLegacy]))).toEqual([
      ['/case-studies/Osteopath%20Clinic', '/case-studies/osteopath-lancing'],
      ['/case-studies/Osteopath%20Lancing', '/case-studies/osteopath-lancing'],
    ])
    expect(pairs(builds([osteopath, fresh], [fresh]))).toEqual([])
  })

  test("the seed's case studies: every legacy id that is not the slug, and no page's address", () => {
    const studies = seedDocuments()
      .filter((doc) => doc._type === 'caseStudy')
      .map((doc) => ({
        _id: doc._id,
        slug: (doc.slug as { current: string }).current,
        legacyId: doc.legacyId as string,
      }))
    const { pages, redirects } = caseStudyRedirects(studies)
    expect(redirects).toHaveLength(studies.filter((study) => study.legacyId !== study.slug).length)
    for (const redirect of redirects) {
      expect(Object.values(pages)).toContain(redirect.to)
      expect(Object.values(pages)).not.toContain(redirect.from)
    }
  })
})

describe('_redirects', () => {
  test('one permanent redirect a line, percent-encoded, before the Studio rewrite', () => {
    const { redirects } = caseStudyRedirects([osteopath, hours])
    expect(redirectsFile(['index.html', 'studio.html'], redirects)).toBe(
      '# Generated by npm run build. Do not edit.\n' +
        '/case-studies/How-I-Saved-40-Hours  /case-studies/how-i-saved-40-hours  301\n' +
        '/case-studies/Osteopath%20Lancing  /case-studies/osteopath-lancing  301\n' +
        '/studio/*  /studio  200\n',
    )
  })

  test('every line is three fields, and an address a host would read as a pattern gets none', () => {
    const { redirects } = caseStudyRedirects([
      { ...fresh, legacyId: 'Tab\there and\nthere' },
      { _id: 'star', slug: 'star', legacyId: 'Five * stars' },
      { _id: 'colon', slug: 'colon', legacyId: 'Case:study' },
    ])
    const lines = redirectsFile([], redirects).trim().split('\n').slice(1)
    expect(lines).toEqual(['/case-studies/Tab%09here%20and%0Athere  /case-studies/fresh  301'])
    for (const line of lines) expect(line.split(/\s+/)).toHaveLength(3)
  })
})

describe('the small page at an old address', () => {
  const redirect = {
    from: '/case-studies/Osteopath%20Lancing',
    to: '/case-studies/osteopath-lancing',
    _id: 'caseStudy-osteopath',
  }

  test('canonical link to the page on the site address, immediate refresh and a visible link', () => {
    const html = redirectPage(redirect, siteUrl)
    expect(html).toMatch(/^<!doctype html>\n<html lang="en-GB">\n<head>\n<meta charset="utf-8">/)
    expect(html).toContain('<title>This page has moved</title>')
    expect(html).toContain(
      '<link rel="canonical" href="https://www.example.co.uk/case-studies/osteopath-lancing">',
    )
    expect(html).toContain('<meta http-equiv="refresh" content="0; url=/case-studies/osteopath-lancing">')
    expect(html).toContain(
      '<a href="/case-studies/osteopath-lancing">https://www.example.co.uk/case-studies/osteopath-lancing</a>',
    )
    expect(html).not.toContain('<script')
    expect(() => redirectPage(redirect, '')).toThrow('Invalid URL')
  })

  test('the Nu HTML checker (the gate and audit:fast) finds no error in it', async () => {
    write(dir, 'case-studies/Osteopath Lancing.html', redirectPage(redirect, siteUrl))
    expect(await checkHtml(dir, ['case-studies/Osteopath Lancing.html'])).toEqual([])
  }, 60_000)

  test('never replaces a file already there, and is written only where a plain file name can be', async () => {
    write(dir, 'case-studies/taken.html', 'the page')
    const written = await writeRedirectPages(
      dir,
      [
        redirect,
        { ...redirect, from: '/case-studies/taken' },
        { ...redirect, from: '/case-studies/.hidden' },
        { ...redirect, from: '/case-studies/a%5Cb' },
        { ...redirect, from: `/case-studies/${'x'.repeat(260)}` },
        { ...redirect, from: '/case-studies/%E0%A4%A' },
      ],
      siteUrl,
    )
    expect(written.map((page) => page.urlPath)).toEqual(['/case-studies/Osteopath%20Lancing'])
    expect(readFileSync(path.join(dir, 'case-studies/taken.html'), 'utf8')).toBe('the page')
    expect(existsSync(path.join(dir, 'case-studies/.hidden.html'))).toBe(false)
    // Again over the same export (a postbuild run twice): its own pages count, nothing else.
    expect(
      await writeRedirectPages(dir, [redirect, { ...redirect, from: '/case-studies/taken' }], siteUrl),
    ).toEqual(written.slice(0, 1))
  })
})

describe('a finished build', () => {
  test('finalizeExport writes the pages, _redirects, _headers and .redirects.json the publisher reads', async () => {
    write(dir, 'index.html', page('Home'))
    write(dir, 'case-studies/osteopath-lancing.html', page('Osteopath'))
    write(dir, 'studio.html', page('Studio'))
    const moved = caseStudyRedirects([osteopath])
    await finalizeExport(
      dir,
      { bookingWidgetUrl: '/booking/', contactWebhookUrl: '/api/contact' },
      {
        redirects: { ...moved, siteUrl },
        pageDocuments: caseStudyPageDocuments([osteopath], moved.redirects),
      },
    )

    expect(readFileSync(path.join(dir, 'case-studies/Osteopath Lancing.html'), 'utf8')).toBe(
      redirectPage(moved.redirects[0]!, siteUrl),
    )
    expect(readFileSync(path.join(dir, '_redirects'), 'utf8')).toContain(
      '/case-studies/Osteopath%20Lancing  /case-studies/osteopath-lancing  301\n/studio/*',
    )
    expect(await readRedirects(dir)).toEqual(moved)
    // The small page has a rule of its own in _headers, as every page.
    const rules = await loadHeaderRules(path.join(dir, '_headers'))
    expect(headersFor(rules, '/case-studies/Osteopath%20Lancing')['Content-Security-Policy']).toContain(
      "script-src 'self'",
    )
    // The gate names the case study on both pages.
    expect(await readPageDocuments(dir)).toEqual({
      '/case-studies/osteopath-lancing': ['caseStudy-osteopath'],
      '/case-studies/Osteopath%20Lancing': ['caseStudy-osteopath'],
    })
    // The publisher: a redirect first, the small page by its own file name only.
    const site = await indexSite(dir)
    expect(resolvePath(site, '/case-studies/Osteopath%20Lancing')).toEqual({
      kind: 'redirect',
      location: '/case-studies/osteopath-lancing',
    })
    expect(resolvePath(site, '/case-studies/Osteopath%20Lancing.html')).toEqual({
      kind: 'file',
      file: 'case-studies/Osteopath Lancing.html',
    })
    expect(resolvePath(site, `/${REDIRECTS_FILE}`)).toEqual({ kind: 'not-found' })
  })

  test('resolvePath: a redirect in any percent-encoding, never for another case or a malformed path', () => {
    const site = siteIndexOf(
      ['case-studies/how-i-saved-40-hours.html'],
      caseStudyRedirects([hours, osteopath]).redirects,
    )
    const to = { kind: 'redirect', location: '/case-studies/how-i-saved-40-hours' }
    expect(resolvePath(site, '/case-studies/How-I-Saved-40-Hours')).toEqual(to)
    expect(resolvePath(site, '/case-studies/How%2DI-Saved-40-Hours')).toEqual(to)
    expect(resolvePath(site, '/case-studies/how-i-saved-40-hours')).toEqual({
      kind: 'file',
      file: 'case-studies/how-i-saved-40-hours.html',
    })
    expect(resolvePath(site, '/case-studies/HOW-I-SAVED-40-HOURS')).toEqual({ kind: 'not-found' })
    expect(resolvePath(site, '/case-studies/Osteopath%20Lancing/')).toEqual({ kind: 'not-found' })
    expect(resolvePath(site, '/case-studies/%E0%A4%A')).toEqual({ kind: 'not-found' })
  })

  test('a build without .redirects.json (an older one), or with a broken one, has no redirects', async () => {
    write(dir, 'index.html', page('Home'))
    expect(await readRedirects(dir)).toBeNull()
    expect((await indexSite(dir)).redirects?.size).toBe(0)
    for (const broken of [
      '{',
      '{"pages": {}, "redirects": [{"from": 1}]}',
      '{"pages": [], "redirects": []}',
    ]) {
      write(dir, REDIRECTS_FILE, broken)
      expect([broken, await readRedirects(dir)]).toEqual([broken, null])
    }
  })
})

describe("the build's postbuild step and the live build", () => {
  /** Runs the real postbuild on a tiny export, on the seed dataset. */
  const postbuild = (out: string, previousDir: string | null = null) =>
    postbuildStep(
      out,
      { kind: 'local', file: path.resolve('studio/seed/dataset.ndjson'), perspective: 'published' },
      previousDir,
      undefined,
      {},
    )
  const exportTo = (out: string) => {
    write(out, 'index.html', page('Home'))
    for (const slug of ['how-i-saved-40-hours', 'osteopath-lancing', 'um-al-hayaa'])
      write(out, `case-studies/${slug}.html`, page(slug))
  }

  test("without it, the legacy ids; with it, also the live build's old addresses", async () => {
    const out = path.join(dir, 'out')
    exportTo(out)
    await postbuild(out)
    const first = (await readRedirects(out))!
    expect(pairs(first)).toEqual([
      ['/case-studies/How-I-Saved-40-Hours', '/case-studies/how-i-saved-40-hours'],
      ['/case-studies/Osteopath%20Lancing', '/case-studies/osteopath-lancing'],
      ['/case-studies/Um%20Al%20Hayaa', '/case-studies/um-al-hayaa'],
    ])
    expect(existsSync(path.join(out, 'case-studies/Um Al Hayaa.html'))).toBe(true)

    // The live build had the Osteopath case study at another slug.
    const live = path.join(dir, 'live')
    write(
      live,
      REDIRECTS_FILE,
      JSON.stringify({
        pages: Object.fromEntries(
          Object.entries(first.pages).map(([id, page]) => [
            id,
            page === '/case-studies/osteopath-lancing' ? '/case-studies/osteopath-lancing-old' : page,
          ]),
        ),
        redirects: first.redirects,
      }),
    )
    const next = path.join(dir, 'next')
    exportTo(next)
    await postbuild(next, live)
    expect(pairs((await readRedirects(next))!)).toContainEqual([
      '/case-studies/osteopath-lancing-old',
      '/case-studies/osteopath-lancing',
    ])
    expect(readFileSync(path.join(next, '_redirects'), 'utf8')).toContain(
      '/case-studies/osteopath-lancing-old  /case-studies/osteopath-lancing  301',
    )
  }, 60_000)
})
