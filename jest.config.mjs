import nextJest from 'next/jest.js'

const createJestConfig = nextJest({ dir: './' })

/** jest: unit and component tests in tests/unit (Playwright owns tests/e2e). */
const config = {
  testEnvironment: 'jsdom',
  roots: ['<rootDir>/tests/unit'],
  setupFilesAfterEnv: ['<rootDir>/tests/unit/setup.ts'],
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/$1' },
  // A worker per core: the publisher's tests mostly wait on child processes (120 s instead of 195 s).
  maxWorkers: '100%',
  // CI's two cores also run builds and browsers: 5 s is too short for a setup that parses the seed.
  testTimeout: 30_000,
}

export default async function jestConfig() {
  const resolved = await createJestConfig(config)()
  // Every file of node_modules goes through the transform below, which leaves CommonJS as
  // it is and compiles ES modules (Node's own rule tells them apart): no list of ESM-only
  // packages to keep. next/jest's own node_modules pattern would stop them first.
  resolved.transformIgnorePatterns = resolved.transformIgnorePatterns.filter(
    (pattern) => !pattern.startsWith('/node_modules'),
  )
  // ES modules of node_modules go through the same SWC transform, `import.meta` removed first
  // (Sanity's packages read Vite's hooks there): tests/unit/helpers/importMetaTransform.mjs.
  const [[pattern, [, swcOptions]]] = Object.entries(resolved.transform)
  resolved.transform = {
    '/node_modules/.+\\.m?js$': ['<rootDir>/tests/unit/helpers/importMetaTransform.mjs', swcOptions],
    [pattern]: resolved.transform[pattern],
  }
  return resolved
}
