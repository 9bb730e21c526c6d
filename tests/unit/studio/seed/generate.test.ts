/**
 * @jest-environment node
 *
 * The seed is data (studio/seed/copy.json) plus code that hashes the images and writes
 * the NDJSON (studio/seed/generate.mjs): the generator must reproduce the committed
 * studio/seed/dataset.ndjson byte for byte, so an edit to either is never half done.
 * (The seed's content is checked like every dataset's: tests/unit/lib/content/schema-rules.test.ts.)
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { NODE } from '../../helpers/publisherFixture'
import { SEED_FILE } from '../../helpers/dataset'

test('studio/seed/generate.mjs rebuilds dataset.ndjson byte for byte from copy.json and the images', () => {
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'seed-')), 'dataset.ndjson')
  const run = spawnSync(NODE, ['studio/seed/generate.mjs', '--out', out], {
    encoding: 'utf8',
    timeout: 60_000,
  })
  expect([run.status, run.stderr]).toEqual([0, ''])
  const written = readFileSync(out)
  const committed = readFileSync(SEED_FILE)
  expect(written.length).toBe(committed.length)
  expect(written.equals(committed)).toBe(true)
}, 60_000)
