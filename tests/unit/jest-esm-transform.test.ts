/**
 * @jest-environment node
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { isEsModule } from './helpers/importMetaTransform.mjs'

// Which files of node_modules jest compiles (tests/unit/helpers/importMetaTransform.mjs):
// Node's own rule, so that no list of ESM-only packages is kept by hand.
let root: string
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'esm-rule-'))
  const write = (file: string, text = '') => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    writeFileSync(path.join(root, file), text)
  }
  write('node_modules/esm-only/package.json', '{"type":"module"}')
  write('node_modules/esm-only/lib/index.js')
  write('node_modules/plain/package.json', '{"main":"index.js"}')
  write('node_modules/plain/index.js')
  write('node_modules/plain/dist/esm/package.json', '{"type":"module"}')
  write('node_modules/plain/dist/esm/index.js')
  write('node_modules/esm-only/lib/legacy.cjs')
  write('node_modules/plain/index.mjs')
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

test.each([
  ['node_modules/esm-only/lib/index.js', true],
  ['node_modules/plain/index.js', false],
  ['node_modules/plain/dist/esm/index.js', true],
  ['node_modules/esm-only/lib/legacy.cjs', false],
  ['node_modules/plain/index.mjs', true],
])('%s is an ES module: %s', (file, expected) => {
  expect(isEsModule(path.join(root, file))).toBe(expected)
})
