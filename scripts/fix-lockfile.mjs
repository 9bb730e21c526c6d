#!/usr/bin/env node
/** Drops optional dependencies the lockfile names without an entry (binaries the mirror lacks), which `npm ci` rejects. */
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
