#!/usr/bin/env node
/**
 * Fails loudly when an npm script runs on an older Node than package.json's `engines.node`
 * asks for (its `>=` major, the one place the version is written besides the exact
 * `node` devDependency, which a unit test keeps within it).
 *
 * Why a check at all: the `node` devDependency puts its Node first on every npm script's
 * PATH, so a machine's own older Node (here the system's 20) never runs the scripts. But
 * if its install script was skipped (`npm ci --ignore-scripts`, or npm 11 not approving
 * it), that binary is missing and scripts would fall back to the system Node, which fails
 * on the first `.ts` file with "Unknown file extension". Node cannot load a `.ts` entry
 * that checks itself, so each npm script that starts Node runs this first.
 */
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

/**
 * The smallest Node major `engines.node` allows.
 * @param {unknown} engines package.json's `engines`
 * @throws Error when `engines.node` is not written `>=N` (this check would mean nothing)
 */
export function requiredMajor(engines) {
  const range = engines && typeof engines === 'object' ? engines.node : undefined
  const match = typeof range === 'string' ? /^>=\s*(\d+)$/.exec(range.trim()) : null
  if (!match)
    throw new Error(`check-node: package.json "engines.node" should read ">=N", not ${JSON.stringify(range)}`)
  return Number(match[1])
}

/**
 * What is wrong with running on `version`, or null when nothing is.
 * @param {string} version e.g. process.versions.node
 * @param {number} major the smallest major allowed
 */
export function nodeVersionProblem(version, major) {
  if (Number(version.split('.')[0]) >= major) return null
  return (
    `This project runs on Node ${major}; this is Node ${version}.\n` +
    `Run it through npm scripts (npm start, npm test): the "node" devDependency supplies Node ${major}.\n` +
    'If that binary is missing, reinstall without --ignore-scripts: npm ci'
  )
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  const problem = nodeVersionProblem(process.versions.node, requiredMajor(engines))
  if (problem) {
    console.error(problem)
    process.exit(1)
  }
}
