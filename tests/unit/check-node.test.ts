/**
 * @jest-environment node
 *
 * The Node version gate every npm script that runs our TypeScript starts with (check-node-version,
 * against package.json's `engines.node`).
 */
import { spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }
const gate = scripts.start!.split(' && ')[0]!
let dir: string

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'check-node-'))
  // A `node` first on PATH that says it is Node 20 (and runs as the real one otherwise).
  writeFileSync(
    path.join(dir, 'node'),
    `#!/bin/sh\n[ "$1" = --version ] && echo v20.20.2 && exit 0\nexec ${process.execPath} "$@"\n`,
  )
  chmodSync(path.join(dir, 'node'), 0o755)
  copyFileSync('package.json', path.join(dir, 'package.json'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Runs the gate in `cwd` with an older Node first on PATH. */
const runGate = (cwd: string) =>
  spawnSync('sh', ['-c', gate], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${dir}:${path.resolve('node_modules/.bin')}:/usr/bin:/bin` },
  })

test('every npm script that runs a .ts file checks the Node version first', () => {
  expect(gate).toContain('check-node-version --package')
  const ungated = Object.entries(scripts).filter(
    ([, script]) => /\bnode [^&]*\.ts\b/.test(script) && !script.startsWith(`${gate} && `),
  )
  expect(ungated).toEqual([])
})

test("the node devDependency's Node passes, even with an older one on PATH", () => {
  const result = runGate(process.cwd())
  expect([result.status, result.stderr]).toEqual([0, ''])
})

test('without it, the older Node that would run the scripts is refused, saying which is wanted', () => {
  const result = runGate(dir)
  expect(result.status).toBe(1)
  expect(`${result.stdout}${result.stderr}`).toMatch(/node: 20\.20\.2[\s\S]*Wanted node version >=24/)
})
