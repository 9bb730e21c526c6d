/**
 * @jest-environment node
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { caseStudyBytes, evenSample } from '@/scripts/bench/case-study-bytes'
import { CASE_STUDY_QUALITY, precompressSite } from '@/postbuild/precompress'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'case-study-bytes-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const write = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
  writeFileSync(path.join(dir, file), text)
}
const size = (file: string) => readFileSync(path.join(dir, file)).length

const words = ['case', 'study', 'osteopath', 'hours', 'saved', 'booking', 'assistant', 'local', 'reply']
const prose = (seed: number) =>
  Array.from({ length: 3000 }, (_, i) => words[(i * i * seed + i * 7) % words.length]).join(' ')

test('evenSample takes at most the count, first and last included', () => {
  const items = Array.from({ length: 1003 }, (_, i) => i)
  const sample = evenSample(items, 101)
  expect(sample).toHaveLength(101)
  expect(sample[0]).toBe(0)
  expect(sample.at(-1)).toBe(1002)
  expect(new Set(sample).size).toBe(101)
  expect(evenSample([1, 2], 101)).toEqual([1, 2])
})

test("a case study page's bytes are its .br files at the postbuild's quality, beside quality 11", async () => {
  for (const [slug, seed] of [
    ['a', 3],
    ['b', 5],
    ['c', 7],
  ] as const) {
    write(`case-studies/${slug}.html`, prose(seed))
    write(`case-studies/${slug}.txt`, prose(seed + 1))
  }
  // The list page and a page at an old address are no case study page.
  write('case-studies.html', prose(11))
  write('case-studies/Old Address.html', prose(13))
  await precompressSite(dir)
  const figures = await caseStudyBytes(dir)

  expect(figures).toMatchObject({ pages: 3, sampled: 3, quality: CASE_STUDY_QUALITY })
  const pages = ['a', 'b', 'c'].map((slug) => ({
    html: size(`case-studies/${slug}.html.br`),
    payload: size(`case-studies/${slug}.txt.br`),
  }))
  const middle = (values: number[]) => values.sort((x, y) => x - y)[1]
  expect(figures.atQuality.html).toBe(middle(pages.map((page) => page.html)))
  expect(figures.atQuality.payload).toBe(middle(pages.map((page) => page.payload)))
  expect(figures.at11.page).toBeLessThan(figures.atQuality.page)
})

test('a case study page without its brotli copy, or a build without case studies, fails naming what it expected', async () => {
  write('case-studies/a.html', prose(3))
  write('case-studies/a.txt', prose(4))
  await expect(caseStudyBytes(dir)).rejects.toThrow(
    /a\.html\.br: ENOENT; expected a precompressed case study page/,
  )
  rmSync(path.join(dir, 'case-studies'), { recursive: true })
  mkdirSync(path.join(dir, 'case-studies'))
  await expect(caseStudyBytes(dir)).rejects.toThrow(/holds no case study page/)
})
