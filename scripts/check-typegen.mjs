#!/usr/bin/env node
/** Fails when the committed TypeGen output differs from what `npm run typegen` makes now. */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

const files = ['lib/content/schema.json', 'lib/content/sanity.types.ts']
const before = files.map((file) => readFileSync(file, 'utf8'))
const run = spawnSync('npm', ['run', '--silent', 'typegen'], { stdio: ['ignore', 'ignore', 'inherit'] })
if (run.status !== 0) process.exit(run.status ?? 1)
const stale = files.filter((file, index) => readFileSync(file, 'utf8') !== before[index])
if (stale.length > 0) {
  console.error(
    `TypeGen output was out of date: ${stale.join(', ')}. They are regenerated now; review and commit them.`,
  )
  process.exit(1)
}
console.log('typegen: generated types match the schema and queries')
