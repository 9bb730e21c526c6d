/**
 * @jest-environment node
 *
 * The publish gate (server/gate.ts) on small builds written here: which pages it
 * checks, the links and assets it resolves, and what it says when one is missing.
 */
import { cpSync, mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { checkCandidate, sitePathsOf } from '@/server/gate'

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title>` +
  `<link rel="icon" href="/icon.svg?v=1"></head><body>${body}</body></html>\n`

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

test('a build whose links all resolve passes; with nothing live every page is checked', async () => {
  const result = await checkCandidate(build(site), null, { html: false })
  expect(result.problems).toEqual([])
  expect(result.pages.sort()).toEqual(['/', '/booking/', '/case-studies/a'])
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

test('only the pages that changed are checked: a page equal to the live one is not read again', async () => {
  const live = build({ ...site, 'case-studies/a.html': page('<a href="/gone">kept from before</a>') })
  const candidate = build({ ...site, 'case-studies/a.html': page('<a href="/gone">kept from before</a>') })
  cpSync(path.join(live, 'case-studies/a.html'), path.join(candidate, 'case-studies/a.html'))
  const result = await checkCandidate(candidate, live, { html: false })
  expect(result).toMatchObject({ pages: [], problems: [] })
})

// Java is there wherever `npm test` runs (audit:fast needs it too).
test('with the Nu HTML checker, invalid HTML on a changed page fails the gate', async () => {
  const candidate = build({ ...site, 'index.html': page('<p><div>block in a paragraph</p></div>') })
  const result = await checkCandidate(candidate, build(site), { html: true })
  expect(result.problems.length).toBeGreaterThan(0)
  expect(result.problems[0]).toMatch(/^\/ is not valid HTML: /)
}, 30_000)
