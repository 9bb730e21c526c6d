/**
 * @jest-environment node
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { brotliDecompressSync } from 'node:zlib'
import {
  BUILD_MARKER,
  indexSite,
  readBuildInfo,
  REDIRECTS_FILE,
  resolvePath,
  siteIndexOf,
  urlPathOf,
} from '@/lib/build-output'
import { PAGE_DOCUMENTS_FILE, readPageDocuments } from '@/lib/page-documents'
import { finalizeExport } from '@/site-build/finalize'
import { decodeFileNames } from '@/site-build/decode-file-names'
import { deferredPayloadOf } from '@/site-build/defer-framework-scripts'
import { payloadFileOf } from '@/site-build/next-export-shape'
import { precompressSite } from '@/site-build/precompress'
import { redirectsFile } from '@/site-build/redirects-file'
import { headerRules, inlineScriptHashes, SCRIPT_HASHES_FILE } from '@/site-build/headers'
import { contentSecurityPolicy } from '@/site-build/headers'
import { headersFor, loadHeaderRules } from '@/server/serving/headers-file'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'finalize-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const write = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
  writeFileSync(path.join(dir, file), text)
}
const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
const settings = { bookingWidgetUrl: '/booking/', contactWebhookUrl: '/api/contact' }

test('inline scripts are allowed by their sha256, external and JSON-LD scripts are not hashed', () => {
  const inline = 'self.__next_f.push([1,"<\\u002fscript> & é"])'
  const html = `<!doctype html><html><head><script src="/a.js"></script><script type="application/ld+json">{}</script></head><body><script>${inline}</script><template><script>x()</script></template></body></html>`
  expect(inlineScriptHashes(html)).toEqual([sha(inline), sha('x()')])
})

test('the policy allows exactly the origins settings name, and https only', () => {
  const policy = contentSecurityPolicy([sha('a')], {
    bookingWidgetUrl: 'https://book.example.com/agency?x=1',
    bookingScriptUrl: 'https://cdn.book.example.com/embed.js',
    contactWebhookUrl: 'https://hooks.example.net/contact',
  })
  expect(policy).toContain(`script-src 'self' ${sha('a')} https://cdn.book.example.com;`)
  expect(policy).toContain("frame-src 'self' https://book.example.com;")
  expect(policy).toContain("connect-src 'self' https://hooks.example.net;")
  expect(policy).toContain("form-action 'self' https://hooks.example.net;")
  expect(policy).toMatch(/frame-ancestors 'none'$/)
  expect(() =>
    contentSecurityPolicy([], { ...settings, contactWebhookUrl: 'http://hooks.example.net/x' }),
  ).toThrow(/https/)
})

test('pages whose paths differ only in case share one rule that allows both pages', () => {
  const rules = headerRules(
    [
      { urlPath: '/case-studies/How-I-Saved-40-Hours', html: '<script>a()</script>' },
      { urlPath: '/case-studies/how-i-saved-40-hours', html: '<script>b()</script>' },
    ],
    settings,
  )
  const pageRules = rules.filter((rule) => rule.for.startsWith('/case-studies'))
  expect(pageRules).toHaveLength(1)
  expect(pageRules[0]!.values['Content-Security-Policy']).toContain(sha('a()'))
  expect(pageRules[0]!.values['Content-Security-Policy']).toContain(sha('b()'))
})

test('finalizeExport decodes file names, writes _headers the server reads back, precompresses, marks the build', async () => {
  write('index.html', `<!doctype html><title>Home</title><script>${'home()'.repeat(300)}</script>`)
  write(
    'case-studies/Osteopath%20Lancing.html',
    '<!doctype html><title>Legacy</title><script>legacy()</script>',
  )
  write('case-studies/Osteopath%20Lancing/__next._tree.txt', 'tree')
  write('booking/index.html', '<!doctype html><title>Booking</title>')
  write('_next/static/chunks/app.js', 'console.log(1);'.repeat(200))
  const result = await finalizeExport(dir, settings)

  expect(result.renamed.sort()).toEqual([
    'case-studies/Osteopath Lancing',
    'case-studies/Osteopath Lancing.html',
  ])
  expect(existsSync(path.join(dir, 'case-studies/Osteopath Lancing/__next._tree.txt'))).toBe(true)
  expect(await readBuildInfo(dir)).toEqual(result.info)

  const rules = await loadHeaderRules(path.join(dir, '_headers'))
  const legacy = headersFor(rules, urlPathOf('case-studies/Osteopath Lancing.html'))
  expect(legacy['Content-Security-Policy']).toContain(sha('legacy()'))
  expect(legacy['X-Content-Type-Options']).toBe('nosniff')
  expect(headersFor(rules, '/')['Content-Security-Policy']).toContain(sha('home()'.repeat(300)))
  expect(headersFor(rules, '/booking/')['Content-Security-Policy']).toContain("frame-ancestors 'self'")
  expect(headersFor(rules, '/_next/static/chunks/app.js')['Cache-Control']).toContain('immutable')

  expect(brotliDecompressSync(readFileSync(path.join(dir, 'index.html.br'))).toString()).toContain('home()')
  expect(existsSync(path.join(dir, 'index.html.gz'))).toBe(true)
  expect(existsSync(path.join(dir, 'booking/index.html.br'))).toBe(false) // under 1 KiB: not worth it
})

test("content images get, in _headers, a policy under which a drawing runs nothing, nosniff said once (on /*), a year's caching", async () => {
  write('index.html', '<!doctype html><title>Home</title>')
  write('media/abc-40x40.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>')
  await finalizeExport(dir, settings)
  const file = path.join(dir, '_headers')
  expect(headersFor(await loadHeaderRules(file), '/media/abc-40x40.svg')).toMatchObject({
    'Content-Security-Policy': "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox",
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'public, max-age=31536000, immutable',
  })
  // A host joins the values of every rule a path matches: a second nosniff would be `nosniff, nosniff`.
  expect(readFileSync(file, 'utf8').match(/X-Content-Type-Options/g)).toHaveLength(1)
})

test('finalizeExport writes the page documents for the gate: never served, and no page changes', async () => {
  const exported = '<!doctype html><title>A</title><a href="/case-studies/b">B</a>'.repeat(100)
  write('index.html', exported)
  write('case-studies/a.html', exported)
  const pageDocuments = { '/case-studies/a': ['caseStudy-a'] }
  await finalizeExport(dir, settings, { pageDocuments })

  expect(await readPageDocuments(dir)).toEqual(pageDocuments)
  // Pages, _headers and _redirects are what they are without it (the copy below).
  const without = mkdtempSync(path.join(os.tmpdir(), 'finalize-'))
  try {
    for (const file of ['index.html', 'case-studies/a.html']) {
      mkdirSync(path.dirname(path.join(without, file)), { recursive: true })
      writeFileSync(path.join(without, file), exported)
    }
    await finalizeExport(without, settings)
    expect(await readPageDocuments(without)).toEqual({})
    for (const file of ['index.html', 'case-studies/a.html', 'index.html.br', '_headers', '_redirects'])
      expect([file, readFileSync(path.join(dir, file))]).toEqual([
        file,
        readFileSync(path.join(without, file)),
      ])
  } finally {
    rmSync(without, { recursive: true, force: true })
  }
  // A dot file: no URL answers it, and it has no compressed copies.
  const site = await indexSite(dir)
  expect(resolvePath(site, `/${PAGE_DOCUMENTS_FILE}`)).toEqual({ kind: 'not-found' })
  expect(readdirSync(dir).filter((file) => file.startsWith(PAGE_DOCUMENTS_FILE))).toEqual([
    PAGE_DOCUMENTS_FILE,
  ])
})

test("the 404 page's inline RSC payload goes too: it is _not-found.txt's, as Next writes no 404.txt", async () => {
  const exported = (payload: string) =>
    `<!doctype html><html><head><script src="/_next/static/chunks/a.js" async=""></script></head>` +
    `<body><h1>Not found</h1><script>self.__next_f.push([1,${JSON.stringify(payload)}])</script></body></html>`
  write('index.html', exported('1:"home"\n'))
  write('index.txt', '1:"home"\n')
  write('404.html', exported('1:"missing"\n'))
  write('_not-found.html', exported('1:"missing"\n'))
  write('_not-found.txt', '1:"missing"\n')
  await finalizeExport(dir, settings)

  for (const [file, url] of [
    ['index.html', '/index.txt'],
    ['404.html', '/_not-found.txt'],
    ['_not-found.html', '/_not-found.txt'],
  ]) {
    const html = readFileSync(path.join(dir, file!), 'utf8')
    expect(html).not.toContain('self.__next_f.push([1,')
    expect(deferredPayloadOf(html)).toBe(url)
  }
  expect(payloadFileOf(dir, path.join(dir, 'case-studies/404.html'))).toBe(
    path.join(dir, 'case-studies/404.txt'),
  )
})

test('compressed copies are reused from the cache by content, and the cache keeps only the last build', async () => {
  const cache = path.join(dir, 'cache')
  write('site/a.js', 'a'.repeat(5000))
  write('site/b.js', 'b'.repeat(5000))
  expect((await precompressSite(path.join(dir, 'site'), cache)).cached).toBe(0)
  write('site/b.js', 'c'.repeat(5000))
  const second = await precompressSite(path.join(dir, 'site'), cache)
  expect(second).toMatchObject({ files: 2, cached: 1 })
  expect(brotliDecompressSync(readFileSync(path.join(dir, 'site/b.js.br'))).toString()).toBe('c'.repeat(5000))
  expect(readdirSync(cache)).toHaveLength(4)
})

test("only the Studio page's policy allows Sanity, for the configured project, and only when there is one", () => {
  const pages = [
    { urlPath: '/', html: '<script>a()</script>' },
    { urlPath: '/studio', html: '<script>s()</script>' },
  ]
  const withProject = headerRules(pages, settings, { studioProjectId: 'abc12345' })
  const csp = (rules: typeof withProject, path: string) =>
    rules.find((rule) => rule.for === path)?.values['Content-Security-Policy'] ?? ''
  expect(csp(withProject, '/studio')).toContain(
    "connect-src 'self' https://abc12345.api.sanity.io wss://abc12345.api.sanity.io",
  )
  expect(csp(withProject, '/studio/*')).toBe(csp(withProject, '/studio'))
  expect(csp(withProject, '/')).not.toContain('sanity')
  expect(csp(headerRules(pages, settings), '/studio')).not.toContain('sanity')
})

test('_redirects sends Studio deep links to the Studio page on static hosts, only when it exists', () => {
  expect(redirectsFile(['index.html', 'studio.html'])).toContain('/studio/*  /studio  200')
  expect(redirectsFile(['index.html'])).not.toContain('/studio')
})

test('decodeFileNames leaves plain names alone', async () => {
  write('sites.html', 'x')
  expect(await decodeFileNames(dir)).toEqual([])
})

test('decodeFileNames renames the deepest names first, so a folder renamed never loses what is inside', async () => {
  write('a%20b/c%20d/e%20f.html', 'x')
  write('a%20b/g%20h.html', 'y')
  expect(await decodeFileNames(dir)).toEqual(['a%20b/c%20d/e f.html', 'a%20b/c d', 'a%20b/g h.html', 'a b'])
  expect(readFileSync(path.join(dir, 'a b/c d/e f.html'), 'utf8')).toBe('x')
  expect(readFileSync(path.join(dir, 'a b/g h.html'), 'utf8')).toBe('y')
})

test('resolvePath maps clean URLs and refuses traversal', () => {
  const site = siteIndexOf(
    ['index.html', 'sites.html', 'booking/index.html', 'case-studies/Osteopath Lancing.html'],
    [{ from: '/case-studies/Old%20Sites', to: '/sites', _id: 'x' }],
  )
  expect(resolvePath(site, '/')).toEqual({ kind: 'file', file: 'index.html' })
  expect(resolvePath(site, '/sites')).toEqual({ kind: 'file', file: 'sites.html' })
  expect(resolvePath(site, '/booking')).toEqual({ kind: 'redirect', location: '/booking/' })
  expect(resolvePath(site, '/case-studies/Osteopath%20Lancing')).toEqual({
    kind: 'file',
    file: 'case-studies/Osteopath Lancing.html',
  })
  expect(resolvePath(site, '/case-studies/Old%20Sites')).toEqual({ kind: 'redirect', location: '/sites' })
  expect(resolvePath(site, '/%2e%2e/sites')).toEqual({ kind: 'not-found' })
  expect(resolvePath(site, '/nope')).toEqual({ kind: 'not-found' })
})

test('finalizeExport adds only the host files, compressed copies and dot files; the marker is id and time', async () => {
  const page = (title: string) =>
    `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1>${'<p>text</p>'.repeat(200)}</body></html>`
  const exported = ['index.html', 'sites.html', 'booking/index.html', '_next/static/chunks/app.js']
  for (const file of exported)
    write(file, file.endsWith('.html') ? page(file) : 'console.log(1);'.repeat(200))
  const result = await finalizeExport(dir, settings)

  const copies = new Set(exported.flatMap((file) => [file, `${file}.br`, `${file}.gz`]))
  const added = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => !copies.has(file))
  expect(added.sort()).toEqual(
    [BUILD_MARKER, PAGE_DOCUMENTS_FILE, REDIRECTS_FILE, SCRIPT_HASHES_FILE, '_headers', '_redirects'].sort(),
  )
  // One kind of build: the marker says which build it is and when, nothing more.
  expect(JSON.parse(readFileSync(path.join(dir, BUILD_MARKER), 'utf8'))).toEqual({
    id: result.info.id,
    builtAt: result.info.builtAt,
  })
  // No page loads a script module the postbuild added.
  for (const file of exported.filter((name) => name.endsWith('.html')))
    expect(readFileSync(path.join(dir, file), 'utf8')).not.toContain('type="module"')
})

test("a page taken from the live build keeps its bytes, and its policy allows the live build's hashes of it", async () => {
  write('index.html', '<!doctype html><title>Home</title><script>home()</script>')
  write('case-studies/a.html', '<!doctype html><title>A</title><script>a()</script>')
  write('case-studies/b.html', '<!doctype html><title>B</title><script>b()</script>')
  const reused = new Set(['case-studies/a.html', 'case-studies/b.html'])
  // The live build's record for a.html (a marked hash shows it was used); b.html has none.
  await finalizeExport(dir, settings, {
    reused,
    reusedScriptHashes: { 'case-studies/a.html': ["'sha256-from-the-live-build'"] },
  })

  expect(readFileSync(path.join(dir, 'case-studies/a.html'), 'utf8')).toBe(
    '<!doctype html><title>A</title><script>a()</script>',
  )
  const rules = await loadHeaderRules(path.join(dir, '_headers'))
  const policy = (page: string) => headersFor(rules, urlPathOf(page))['Content-Security-Policy']
  expect(policy('case-studies/a.html')).toContain("'sha256-from-the-live-build'")
  expect(policy('case-studies/b.html')).toContain(sha('b()'))
  expect(policy('index.html')).toContain(sha('home()'))
  // This build's record, for the next one: every page, its hashes as its policy has them.
  expect(JSON.parse(readFileSync(path.join(dir, SCRIPT_HASHES_FILE), 'utf8'))).toEqual({
    'case-studies/a.html': ["'sha256-from-the-live-build'"],
    'case-studies/b.html': [sha('b()')],
    'index.html': [sha('home()')],
  })
})
