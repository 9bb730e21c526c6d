/** `npm run test:docs` after remark-validate-links: fails on a path or npm script the docs name in code that does not exist. */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { problemsOf, referencesIn } from './docs/references.ts'

/** The paths among these (relative to the root) that git ignores. */
function ignoredOf(paths: readonly string[]): Set<string> {
  if (paths.length === 0) return new Set()
  try {
    const out = execFileSync('git', ['check-ignore', '--stdin'], {
      input: paths.join('\n'),
      encoding: 'utf8',
    })
    return new Set(out.split('\n').filter(Boolean))
  } catch (error) {
    // Status 1: none of them is ignored.
    if ((error as { status?: number }).status === 1) return new Set()
    throw error
  }
}

const docs = ['README.md', 'SECURITY.md', ...readdirSync('docs').map((name) => `docs/${name}`)]
  .filter((file) => file.endsWith('.md'))
  .sort()
const entries = readdirSync('.').filter((name) => name !== '.git')
const ignoredEntries = ignoredOf(entries)
const topLevel = new Set(entries.filter((name) => !ignoredEntries.has(name)))
const references = docs.flatMap((file) => referencesIn(file, readFileSync(file, 'utf8'), topLevel))
const ignored = ignoredOf([...new Set(references.filter((r) => r.kind === 'path').map((r) => r.name))])
const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }
const problems = problemsOf(references, {
  scripts: new Set(Object.keys(scripts)),
  exists: existsSync,
  ignored: (relativePath) => ignored.has(relativePath),
})

for (const { file, line, message } of problems) console.error(`${file}:${line}: ${message}`)
if (problems.length > 0) {
  console.error(`docs: ${problems.length} reference(s) to nothing in ${docs.join(', ')}`)
  process.exit(1)
}
console.log(`docs: ${references.length} paths and npm scripts named in ${docs.length} documents all exist`)
