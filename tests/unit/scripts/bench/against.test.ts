/**
 * @jest-environment node
 *
 * Two exports compared file by file (scripts/bench/against.ts): Next's build id set
 * aside, precompressed copies left out, and a loud failure when the id cannot be found.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { compareExports, nextBuildIdOf } from '@/scripts/bench/against'

let root: string
beforeEach(() => (root = mkdtempSync(path.join(os.tmpdir(), 'bench-against-'))))
afterEach(() => rmSync(root, { recursive: true, force: true }))

/** An export with Next's build id `id` and the given files (`{id}` in a path or text is the id). */
function exportOf(name: string, id: string, files: Record<string, string>): string {
  const dir = path.join(root, name)
  mkdirSync(path.join(dir, '_next/static', id), { recursive: true })
  mkdirSync(path.join(dir, '_next/static/chunks'), { recursive: true })
  for (const [file, text] of Object.entries(files)) {
    const full = path.join(dir, file.replaceAll('{id}', id))
    mkdirSync(path.dirname(full), { recursive: true })
    writeFileSync(full, text.replaceAll('{id}', id))
  }
  return dir
}

test('same files, files that differ by the build id only, changed files, files on one side', async () => {
  const common = {
    'index.html': '<h1>Home</h1>',
    'index.html.br': 'compressed',
    'index.txt': 'payload of build {id}',
    '_next/static/{id}/_buildManifest.js': 'manifest {id}',
  }
  const before = exportOf('before', 'AAAA', { ...common, 'sites.html': '<h1>Sites</h1>', 'old.html': 'x' })
  const after = exportOf('after', 'BBBB', {
    ...common,
    'index.html.br': 'compressed differently',
    'sites.html': '<h1>Sites, changed</h1>',
    '.page-documents.json': '{}',
  })
  expect(await compareExports(before, after)).toEqual({
    identical: 1,
    onlyBuildId: 2,
    differ: ['sites.html'],
    onlyBefore: ['old.html'],
    onlyAfter: ['.page-documents.json'],
  })
})

test('an export without exactly one build id folder fails, naming what it found', () => {
  const dir = exportOf('odd', 'AAAA', {})
  mkdirSync(path.join(dir, '_next/static/BBBB'))
  expect(() => nextBuildIdOf(dir)).toThrow(/expected one build id folder in .*found \[AAAA, BBBB\]/)
})
