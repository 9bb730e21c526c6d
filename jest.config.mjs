import nextJest from 'next/jest.js'

const createJestConfig = nextJest({ dir: './' })

// ESM-only packages that must go through the transform: jest cannot load them as they ship.
// A nested ESM package also needs its parent in the pattern.
const esmPackages = [
  '@portabletext',
  '@sanity',
  'groq',
  'groq-js',
  'obug',
  'nanoid',
  'get-it',
  'eventsource',
  'eventsource-parser',
  'react-toastify',
  // next-sanity's root entry (lib/content/source.ts, queries.ts) and the packages nested under it.
  'next-sanity',
  // server/: @fastify/static's nested content-disposition and Netlify's _headers parser are ESM-only.
  '@fastify/static',
  // @fastify/cookie loads the ESM-only `cookie` with import(), which jest's CommonJS cannot run untransformed.
  '@fastify/cookie',
  'content-disposition',
  '@netlify/headers-parser',
  'escape-string-regexp',
  'smol-toml',
  'cookie', // light-my-request (Fastify's inject)
  // The real Sanity Studio (tests/unit/studio-structure.test.ts) and its ESM-only dependencies.
  'sanity',
  'react-rx',
  'uuid',
  'is-network-error',
  'quick-lru',
  'arrify',
  'ui5',
  'leven',
  'lodash-es',
  // postbuild/precompress.ts and scripts/build/reuse-pages.ts
  'p-map',
]

/** jest: unit and component tests in tests/unit (Playwright owns tests/e2e). */
const config = {
  testEnvironment: 'jsdom',
  roots: ['<rootDir>/tests/unit'],
  setupFilesAfterEnv: ['<rootDir>/tests/unit/setup.ts'],
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/$1' },
  // A worker per core, not jest's default of one fewer: the publisher's tests spend most of
  // their time waiting on child processes (fake builds), so 2 workers on 2 cores run the
  // suite in about 120 s instead of 195 s.
  maxWorkers: '100%',
}

export default async function jestConfig() {
  const resolved = await createJestConfig(config)()
  // next/jest puts its own node_modules pattern first; appending cannot undo it, so replace it
  // with one that also lets the ESM-only packages through.
  const nextAllowed = [
    'geist',
    'next/dist/client',
    'next/dist/shared/lib',
    'next/src/client',
    'next/src/shared/lib',
  ]
  resolved.transformIgnorePatterns = [
    `/node_modules/(?!(${[...nextAllowed, ...esmPackages].join('|')})/)`,
    ...resolved.transformIgnorePatterns.filter((pattern) => !pattern.startsWith('/node_modules')),
  ]
  // Sanity's packages read `import.meta` (Vite's hooks), a syntax error in CommonJS: packages go
  // through the same SWC transform with that removed first (tests/unit/helpers/importMetaTransform.mjs).
  const [[pattern, [, swcOptions]]] = Object.entries(resolved.transform)
  resolved.transform = {
    '/node_modules/.+\\.m?js$': ['<rootDir>/tests/unit/helpers/importMetaTransform.mjs', swcOptions],
    [pattern]: resolved.transform[pattern],
  }
  return resolved
}
