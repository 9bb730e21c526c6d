#!/usr/bin/env node
/**
 * Makes package-lock.json acceptable to `npm ci` on this project's registry mirror.
 *
 * Why: the mirror lacks other platforms' optional binaries (e.g.
 * `@tailwindcss/oxide-darwin-arm64`, `@next/swc-win32-x64-msvc`). `npm install`
 * then writes a lockfile whose packages list those optional dependencies with no
 * entry of their own, and `npm ci` rejects it ("Missing: ... from lock file").
 * This drops exactly those dangling optional-dependency references; nothing that
 * was installed changes. Run it after every `npm install` that edits the lockfile.
 *
 * Usage: node scripts/fix-lockfile.mjs [path/to/package-lock.json]
 */
import { readFileSync, writeFileSync } from 'node:fs'

const file = process.argv[2] ?? 'package-lock.json'
const lock = JSON.parse(readFileSync(file, 'utf8'))

/** Node's lookup: from the package's own folder up to the root node_modules. */
function resolves(fromKey, name, spec) {
  let base = fromKey
  for (;;) {
    const found = lock.packages[`${base ? `${base}/` : ''}node_modules/${name}`]
    if (found) return !/^\d/.test(spec) || found.version === spec
    if (!base) return false
    const cut = base.lastIndexOf('node_modules/')
    base = cut <= 0 ? '' : base.slice(0, cut - 1)
  }
}

let removed = 0
for (const [key, entry] of Object.entries(lock.packages)) {
  if (!entry.optionalDependencies) continue
  for (const [name, spec] of Object.entries(entry.optionalDependencies)) {
    if (!resolves(key, name, spec)) {
      delete entry.optionalDependencies[name]
      removed += 1
    }
  }
  if (Object.keys(entry.optionalDependencies).length === 0) delete entry.optionalDependencies
}
writeFileSync(file, JSON.stringify(lock, null, 2) + '\n')
console.log(`fix-lockfile: removed ${removed} optional dependencies the registry does not serve`)
