/**
 * jest transform for the ESM packages jest.config.mjs lets through: Next's SWC
 * transform (the one the site's own files go through) with `import.meta` replaced
 * by an empty object first. Sanity's packages read `import.meta.hot` and
 * `import.meta.env` (Vite's dev-server hooks, both absent outside Vite); jest runs
 * modules as CommonJS, where `import.meta` is a syntax error, so a package using it
 * could not load at all. With this, tests can load Sanity's real Studio code
 * (tests/unit/studio-structure.test.ts builds the desk with it).
 */
import nextJestTransformer from 'next/dist/build/swc/jest-transformer.js'

/**
 * @param {unknown} options next/jest's transformer options, passed through
 * @returns a jest transformer
 */
function createTransformer(options) {
  const swc = nextJestTransformer.createTransformer(options)
  return {
    process: (source, filename, jestOptions) =>
      swc.process(source.replace(/\bimport\.meta\b/g, '({})'), filename, jestOptions),
  }
}

/** The transformer factory, as jest loads it (the module's default export). */
const importMetaTransform = { createTransformer }
export default importMetaTransform
