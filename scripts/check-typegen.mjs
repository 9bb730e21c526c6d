#!/usr/bin/env node
/**
 * Fails when the committed TypeGen output is stale: regenerates the extracted
 * schema and the query result types (`npm run typegen`) and compares them with
 * what was there. Types are generated, never hand-edited, so any difference
 * means a schema or query changed without `npm run typegen`.
 */
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
