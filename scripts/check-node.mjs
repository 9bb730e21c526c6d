#!/usr/bin/env node
/**
 * Fails loudly when an npm script runs on a Node older than 24.
 * The `node` devDependency puts Node 24 first on every npm script's PATH; if
 * install scripts were skipped (`--ignore-scripts`), that binary is missing and
 * scripts would silently fall back to the system Node.
 */
const [major] = process.versions.node.split('.').map(Number)
if (major < 24) {
  console.error(
    `This project runs on Node 24 LTS; this is Node ${process.versions.node}.\n` +
      'Run it through npm scripts (npm start, npm test): the "node" devDependency supplies Node 24.\n' +
      'If that binary is missing, reinstall without --ignore-scripts: npm ci',
  )
  process.exit(1)
}
