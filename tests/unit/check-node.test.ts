/**
 * @jest-environment node
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { nodeVersionProblem, requiredMajor } from '@/scripts/check-node.mjs'

const pkg = JSON.parse(readFileSync(path.resolve('package.json'), 'utf8')) as {
  engines: unknown
  devDependencies: Record<string, string>
}

test('the smallest major is read from engines.node, written >=N', () => {
  expect(requiredMajor({ node: '>=24' })).toBe(24)
  expect(requiredMajor({ node: '>= 26 ' })).toBe(26)
  expect(() => requiredMajor({ node: '^24' })).toThrow('"engines.node" should read ">=N", not "^24"')
  expect(() => requiredMajor(undefined)).toThrow('not undefined')
})

test('an older Node is refused, saying which it is and what to do; the same or newer passes', () => {
  expect(nodeVersionProblem('20.20.2', 24)).toBe(
    'This project runs on Node 24; this is Node 20.20.2.\n' +
      'Run it through npm scripts (npm start, npm test): the "node" devDependency supplies Node 24.\n' +
      'If that binary is missing, reinstall without --ignore-scripts: npm ci',
  )
  expect(nodeVersionProblem('24.9.0', 24)).toBeNull()
  expect(nodeVersionProblem('25.0.0', 24)).toBeNull()
})

test('the Node the devDependency supplies is one engines.node allows', () => {
  const supplied = pkg.devDependencies.node
  expect(supplied).toMatch(/^\d+\.\d+\.\d+$/)
  expect(nodeVersionProblem(supplied!, requiredMajor(pkg.engines))).toBeNull()
})
