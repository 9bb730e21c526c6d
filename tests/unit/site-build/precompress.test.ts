/**
 * @jest-environment node
 */
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib'
import { brotliQualityOf, CASE_STUDY_QUALITY, precompressSite } from '@/site-build/precompress'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'precompress-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const write = (file: string, text: string | Buffer) => {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
  writeFileSync(path.join(dir, file), text)
}
const read = (file: string) => readFileSync(path.join(dir, file))
const unbrotli = (file: string) => brotliDecompressSync(read(file)).toString()

/** Text that brotli's qualities compress differently (a plain repeat compresses the same at all). */
const words = ['case', 'study', 'osteopath', 'hours', 'saved', 'booking', 'assistant', 'local', 'reply']
const prose = (seed: number) =>
  Array.from({ length: 1500 }, (_, i) => words[(i * i * seed + i * 7) % words.length]).join(' ')

/** sha256 of `PAGE` and `PAYLOAD` below, computed outside the module. */
const PAGE = '<p>page</p>'.repeat(500)
const PAGE_SHA = 'fa30352c49bd0205edea71a54b96a5d54137904e1989a3338212843966c001ff'
const PAYLOAD = '0:["payload"]\n'.repeat(400)
const PAYLOAD_SHA = '11b971ca557e095542a3054ed1d09565effd61d9e4ec002caf3f06a70cea84b9'

test('brotli quality: 11 for HTML of any size and for other files up to 256 KiB, 6 for RSC payloads and larger files', () => {
  expect(brotliQualityOf('index.html', 1024)).toBe(11)
  expect(brotliQualityOf('case-studies.html', 5_000_000)).toBe(11)
  expect(brotliQualityOf('sites.html', 60_000)).toBe(11)
  expect(brotliQualityOf('404.html', 30_000)).toBe(11)
  expect(brotliQualityOf('_next/static/chunks/0a2j5wc7l4dki.js', 256 * 1024)).toBe(11)
  expect(brotliQualityOf('_next/static/chunks/3bvo0b-smcuhv.css', 30_000)).toBe(11)
  expect(brotliQualityOf('logo.svg', 4_000)).toBe(11)
  expect(brotliQualityOf('_next/static/chunks/435-oj-fx6k-0.js', 256 * 1024 + 1)).toBe(6)
  expect(brotliQualityOf('index.txt', 2_000)).toBe(6)
  expect(brotliQualityOf('__next.!KHNpdGUp.txt', 40_000)).toBe(6)
  expect(brotliQualityOf('sites/__next._full.txt', 60_000)).toBe(6)
})

test("brotli quality: a case study's HTML, payload and segment files get CASE_STUDY_QUALITY; the list page's files do not", () => {
  expect(CASE_STUDY_QUALITY).toBeLessThan(11)
  for (const file of [
    'case-studies/osteopath-lancing.html',
    'case-studies/osteopath-lancing.txt',
    'case-studies/osteopath-lancing/__next._full.txt',
    'case-studies/osteopath-lancing/__next.!KHNpdGUp.case-studies.$d$slug.__PAGE__.txt',
    // A page at an old address is one of the case study's own.
    'case-studies/Osteopath Lancing.html',
  ])
    expect([file, brotliQualityOf(file, 60_000)]).toEqual([file, CASE_STUDY_QUALITY])
  // The list page and its segment files, which sit in the same folder; a page whose name
  // merely starts the same; the same name elsewhere.
  expect(brotliQualityOf('case-studies.html', 300_000)).toBe(11)
  expect(brotliQualityOf('case-studies/__next._full.txt', 74_000)).toBe(6)
  expect(brotliQualityOf('case-studies/__next.!KHNpdGUp.case-studies.__PAGE__.txt', 30_000)).toBe(6)
  expect(brotliQualityOf('case-studies-old/x.html', 30_000)).toBe(11)
  expect(brotliQualityOf('sites/osteopath-lancing.html', 30_000)).toBe(11)
  expect(brotliQualityOf('og/case-studies/osteopath-lancing.svg', 4_000)).toBe(11)
})

test("a case study page's brotli copy is made at CASE_STUDY_QUALITY, the home and list pages' at 11", async () => {
  const page = prose(3)
  write('site/index.html', page)
  write('site/case-studies.html', page)
  // The same bytes as the home page: one content, a copy at each quality.
  write('site/case-studies/osteopath-lancing.html', page)
  await precompressSite(path.join(dir, 'site'))
  const brotliAt = (quality: number) =>
    brotliCompressSync(page, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: quality,
        [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(page),
      },
    })
  expect(read('site/index.html.br')).toEqual(brotliAt(11))
  expect(read('site/case-studies.html.br')).toEqual(brotliAt(11))
  expect(read('site/case-studies/osteopath-lancing.html.br')).toEqual(brotliAt(CASE_STUDY_QUALITY))
  expect(brotliAt(CASE_STUDY_QUALITY)).not.toEqual(brotliAt(11))
})

test('each file gets the brotli copy of its quality and a gzip copy, both decompressing to it', async () => {
  const html = prose(3)
  const payload = prose(5)
  write('site/page.html', html)
  write('site/page.txt', payload)
  await precompressSite(path.join(dir, 'site'))
  const brotliAt = (text: string, quality: number) =>
    brotliCompressSync(text, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: quality,
        [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(text),
      },
    })
  expect(read('site/page.html.br')).toEqual(brotliAt(html, 11))
  expect(read('site/page.txt.br')).toEqual(brotliAt(payload, 6))
  expect(read('site/page.txt.br')).not.toEqual(brotliAt(payload, 11))
  expect(gunzipSync(read('site/page.html.gz')).toString()).toBe(html)
  expect(gunzipSync(read('site/page.txt.gz')).toString()).toBe(payload)
})

test('cache entries are named by content hash and settings; an entry of other settings is never served', async () => {
  const cache = path.join(dir, 'cache')
  write('site/a.html', PAGE)
  write('site/a.txt', PAYLOAD)
  // What an earlier build left: PAGE's brotli copy at quality 11, and PAYLOAD's at 11
  // (before payloads got quality 6). Their bytes are marked so that a use shows.
  write(`cache/${PAGE_SHA}.q11.br`, brotliCompressSync('from the cache'))
  write(`cache/${PAYLOAD_SHA}.q11.br`, brotliCompressSync('stale'))
  const result = await precompressSite(path.join(dir, 'site'), cache)

  expect(unbrotli('site/a.html.br')).toBe('from the cache')
  expect(unbrotli('site/a.txt.br')).toBe(PAYLOAD)
  // PAGE's gzip copy, PAYLOAD's gzip and quality-6 brotli copies.
  expect(result).toMatchObject({ files: 2, cached: 0, compressions: 3 })
  expect(readdirSync(cache).sort()).toEqual([
    `${PAYLOAD_SHA}.level9.gz`,
    `${PAYLOAD_SHA}.q6.br`,
    `${PAGE_SHA}.level9.gz`,
    `${PAGE_SHA}.q11.br`,
  ])

  const again = await precompressSite(path.join(dir, 'site'), cache)
  expect(again).toMatchObject({ files: 2, cached: 2, compressions: 0 })
})

test('a content in several files is compressed once and written beside each', async () => {
  write('site/page.txt', PAYLOAD)
  write('site/page/__next._full.txt', PAYLOAD)
  write('site/other/__next._full.txt', PAYLOAD)
  const result = await precompressSite(path.join(dir, 'site'))
  expect(result).toMatchObject({ files: 3, rawBytes: 3 * 5600, compressions: 2 })
  for (const file of ['site/page.txt', 'site/page/__next._full.txt', 'site/other/__next._full.txt']) {
    expect(unbrotli(`${file}.br`)).toBe(PAYLOAD)
    expect(gunzipSync(read(`${file}.gz`)).toString()).toBe(PAYLOAD)
  }
})

test('files under 1 KiB, formats that are compressed already and copies no smaller are left alone', async () => {
  write('site/small.js', 'x()'.repeat(300))
  write('site/photo.png', PAGE)
  // Bytes that compress to more than they are: 128 sha256 digests.
  write(
    'site/noise.json',
    Buffer.concat(Array.from({ length: 128 }, (_, i) => createHash('sha256').update(String(i)).digest())),
  )
  const result = await precompressSite(path.join(dir, 'site'))
  expect(result).toMatchObject({ files: 1, brotliBytes: 0, gzipBytes: 0 })
  expect(readdirSync(path.join(dir, 'site')).sort()).toEqual(['noise.json', 'photo.png', 'small.js'])
})

test('files taken from the live build count in the totals with the copies they came with', async () => {
  const names = Array.from({ length: 40 }, (_, i) => `page-${i}.html`)
  for (const name of names) {
    write(`site/${name}`, PAGE)
    write(`site/${name}.br`, 'b'.repeat(100))
    write(`site/${name}.gz`, 'g'.repeat(200))
  }
  const result = await precompressSite(path.join(dir, 'site'), undefined, new Set(names))
  expect(result).toMatchObject({ files: 40, reused: 40, compressions: 0 })
  expect(result).toMatchObject({ rawBytes: 40 * PAGE.length, brotliBytes: 40 * 100, gzipBytes: 40 * 200 })
})

test('a file taken from the live build keeps the copies it came with; the cache keeps recent entries, drops old unused ones', async () => {
  const cache = path.join(dir, 'cache')
  write('site/kept.html', PAGE)
  write('site/kept.html.br', 'br copy from the live build')
  write('site/kept.html.gz', 'gz copy from the live build')
  write('site/new.txt', PAYLOAD)
  write(`cache/${PAGE_SHA}.q11.br`, 'an entry of an earlier build')
  write(`cache/${PAGE_SHA}.level9.gz`, 'an entry of an earlier build')
  write('cache/0000.q11.br', 'an entry nothing uses, written 31 days ago')
  const longAgo = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000)
  utimesSync(path.join(dir, 'cache/0000.q11.br'), longAgo, longAgo)
  const result = await precompressSite(path.join(dir, 'site'), cache, new Set(['kept.html']))

  expect(read('site/kept.html.br').toString()).toBe('br copy from the live build')
  expect(read('site/kept.html.gz').toString()).toBe('gz copy from the live build')
  expect(unbrotli('site/new.txt.br')).toBe(PAYLOAD)
  expect(result).toMatchObject({ files: 2, reused: 1, cached: 0, compressions: 2 })
  expect(result.rawBytes).toBe(PAGE.length + PAYLOAD.length)
  expect(result.brotliBytes).toBe('br copy from the live build'.length + read('site/new.txt.br').length)
  expect(readdirSync(cache).sort()).toEqual([
    `${PAYLOAD_SHA}.level9.gz`,
    `${PAYLOAD_SHA}.q6.br`,
    `${PAGE_SHA}.level9.gz`,
    `${PAGE_SHA}.q11.br`,
  ])
})
