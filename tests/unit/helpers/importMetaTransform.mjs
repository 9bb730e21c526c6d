/**
 * jest transform for the files of node_modules: an ES module, or a CommonJS file with a
 * dynamic `import()`, goes through Next's SWC transform (the one the site's own files go
 * through), with `import.meta` replaced by an empty object first; any other file is left
 * as it is.
 *
 * Which is which is Node's own rule (`isEsModule`), so no list of ESM-only packages is
 * kept by hand: jest runs every module as CommonJS, and one shipped as ESM cannot load
 * untransformed. Sanity's packages read `import.meta.hot` and `import.meta.env` (Vite's
 * dev-server hooks, both absent outside Vite); in CommonJS `import.meta` is a syntax
 * error, so a package using it could not load at all. With this, tests can load Sanity's
 * real Studio code (tests/unit/studio/structure.test.ts builds the desk with it).
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import nextJestTransformer from 'next/dist/build/swc/jest-transformer.js'

/** The `type` of the package.json nearest each folder (`undefined`: none says). */
const typeByFolder = new Map()

/** The `type` field of the package.json nearest `folder`, looking up to the root. */
function packageType(folder) {
  if (typeByFolder.has(folder)) return typeByFolder.get(folder)
  let type
  try {
    type = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')).type ?? 'commonjs'
  } catch {
    const parent = path.dirname(folder)
    type = parent === folder ? 'commonjs' : packageType(parent)
  }
  typeByFolder.set(folder, type)
  return type
}

/**
 * Whether Node loads a file as an ES module: `.mjs` always, `.cjs` never, `.js` when the
 * nearest package.json says `"type": "module"`.
 * @param {string} filename an absolute path
 */
export function isEsModule(filename) {
  if (filename.endsWith('.mjs')) return true
  if (filename.endsWith('.cjs')) return false
  return packageType(path.dirname(filename)) === 'module'
}

/**
 * A dynamic `import()`: jest's CommonJS runtime cannot run one (it throws "A dynamic import
 * callback was invoked without --experimental-vm-modules"), so a CommonJS file with one
 * (@fastify/cookie loading the ESM-only `cookie`) goes through SWC too, which makes it a
 * `require`.
 */
const DYNAMIC_IMPORT = /\bimport\(/

/**
 * @param {unknown} options next/jest's transformer options, passed through
 * @returns a jest transformer
 */
function createTransformer(options) {
  const swc = nextJestTransformer.createTransformer(options)
  return {
    process: (source, filename, jestOptions) =>
      isEsModule(filename) || DYNAMIC_IMPORT.test(source)
        ? swc.process(source.replace(/\bimport\.meta\b/g, '({})'), filename, jestOptions)
        : { code: source },
  }
}

/** The transformer factory, as jest loads it (the module's default export). */
const importMetaTransform = { createTransformer }
export default importMetaTransform
