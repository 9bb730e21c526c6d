/**
 * @jest-environment node
 *
 * The one walk of a build folder (lib/build-output.ts `listFiles`): what it lists, in which
 * order and form, and what it leaves alone (links, folders, a missing root).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { listFiles } from '@/lib/build-output'

let root: string
let outside: string
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'list-files-'))
  outside = mkdtempSync(path.join(os.tmpdir(), 'list-files-outside-'))
  const files = ['B.html', 'a.html', 'a.b', 'a/b.html', 'a/c/d.txt', '.hidden/x.html', 'e%20f/g.html']
  for (const file of files) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    writeFileSync(path.join(root, file), file)
  }
  mkdirSync(path.join(root, 'empty'))
  writeFileSync(path.join(outside, 'elsewhere.html'), 'x')
  symlinkSync(outside, path.join(root, 'linked-folder'))
  symlinkSync(path.join(root, 'a.html'), path.join(root, 'linked.html'))
})
afterEach(() => {
  rmSync(root, { recursive: true, force: true })
  rmSync(outside, { recursive: true, force: true })
})

test('every regular file at any depth, relative with / separators, sorted by code unit; no folder, no link', async () => {
  expect(await listFiles(root)).toEqual([
    '.hidden/x.html',
    'B.html',
    'a.b',
    'a.html',
    'a/b.html',
    'a/c/d.txt',
    'e%20f/g.html',
  ])
})

test('the filter is given each relative path and keeps what it returns true for', async () => {
  const seen: string[] = []
  const kept = await listFiles(root, {
    filter: (file) => {
      seen.push(file)
      return file.endsWith('.html') && !file.startsWith('.')
    },
  })
  expect(kept).toEqual(['B.html', 'a.html', 'a/b.html', 'e%20f/g.html'])
  expect(seen.sort()).toEqual(await listFiles(root))
})

test('everyEntry lists folders and links too, and still follows no link', async () => {
  expect(await listFiles(root, { everyEntry: true })).toEqual([
    '.hidden',
    '.hidden/x.html',
    'B.html',
    'a',
    'a.b',
    'a.html',
    'a/b.html',
    'a/c',
    'a/c/d.txt',
    'e%20f',
    'e%20f/g.html',
    'empty',
    'linked-folder',
    'linked.html',
  ])
})

test('a relative root gives the same paths', async () => {
  const relative = path.relative(process.cwd(), root)
  expect(await listFiles(relative)).toEqual(await listFiles(root))
})

test('a missing folder or a file is an error, not an empty list', async () => {
  await expect(listFiles(path.join(root, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' })
  await expect(listFiles(path.join(root, 'a.html'))).rejects.toMatchObject({ code: 'ENOTDIR' })
})
