/**
 * @jest-environment node
 */
import { problemsOf, referencesIn, type Repository } from '../../../../scripts/docs/references'

/** A small repository: these top-level names, files and scripts, with public/media/ ignored. */
const TOP_LEVEL = new Set(['docs', 'lib', 'public', 'scripts', 'studio', 'README.md'])
const FILES = new Set([
  'README.md',
  'docs/publishing.md',
  'lib/content/media.ts',
  'scripts/build.ts',
  'studio',
])
const repository: Repository = {
  scripts: new Set(['build', 'studio', 'test']),
  exists: (relativePath) => FILES.has(relativePath),
  ignored: (relativePath) => relativePath.startsWith('public/media/'),
}

const doc = [
  'Images are read by `lib/content/media.ts`; `lib/content/gone.ts` was removed.', // 1
  'Links are not read here: [publishing](publishing.md), [hosting](hosting.md#netlify), or', // 2
  '[the README](../README.md) and [Sanity](https://www.sanity.io/docs).', // 3
  'Run `npm run build`, then npm test; `npm run nope` is no script.', // 4
  'Not paths: `/healthz`, `@sanity/types`, `out/`, `.github/workflows/*.yml`, `public/media/a.avif`.', // 5
  '`npm run studio` opens the Studio; `npm ci` installs.', // 6
  '', // 7
  '```sh', // 8
  'node scripts/build.ts   # (scripts/missing.ts)', // 9
  '```', // 10
].join('\n')

test('finds the paths and npm scripts a document names, with their lines', () => {
  expect(referencesIn('docs/content.md', doc, TOP_LEVEL)).toEqual([
    { file: 'docs/content.md', line: 1, kind: 'path', name: 'lib/content/media.ts' },
    { file: 'docs/content.md', line: 1, kind: 'path', name: 'lib/content/gone.ts' },
    { file: 'docs/content.md', line: 4, kind: 'script', name: 'build' },
    { file: 'docs/content.md', line: 4, kind: 'script', name: 'test' },
    { file: 'docs/content.md', line: 4, kind: 'script', name: 'nope' },
    { file: 'docs/content.md', line: 5, kind: 'path', name: 'public/media/a.avif' },
    { file: 'docs/content.md', line: 6, kind: 'script', name: 'studio' },
    { file: 'docs/content.md', line: 9, kind: 'path', name: 'scripts/build.ts' },
    { file: 'docs/content.md', line: 9, kind: 'path', name: 'scripts/missing.ts' },
  ])
})

test('reports each missing path and npm script with its file and line, and nothing else', () => {
  const references = referencesIn('docs/content.md', doc, TOP_LEVEL)
  expect(problemsOf(references, repository)).toEqual([
    { file: 'docs/content.md', line: 1, message: 'lib/content/gone.ts does not exist' },
    { file: 'docs/content.md', line: 4, message: 'npm script "nope" is not in package.json' },
    { file: 'docs/content.md', line: 9, message: 'scripts/missing.ts does not exist' },
  ])
})

test('a document whose paths and scripts all exist has no problems', () => {
  const text = 'Built by `scripts/build.ts` (`npm run build`); see [publishing](docs/publishing.md).'
  expect(problemsOf(referencesIn('README.md', text, TOP_LEVEL), repository)).toEqual([])
})

test('a code span may wrap onto the next line; a script name at a sentence end drops the full stop', () => {
  const text = 'First\nrun `node\nscripts/gone.ts`, then npm run\nbuild.'
  expect(referencesIn('README.md', text, TOP_LEVEL)).toEqual([
    { file: 'README.md', line: 3, kind: 'path', name: 'scripts/gone.ts' },
    { file: 'README.md', line: 4, kind: 'script', name: 'build' },
  ])
})
