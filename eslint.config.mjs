import nextVitals from 'eslint-config-next/core-web-vitals'
import nextTypescript from 'eslint-config-next/typescript'
import { defineConfig, globalIgnores } from 'eslint/config'

/**
 * Import direction (docs/architecture.md, "Import rules"):
 * app -> components, lib; components -> lib (pure helpers, content types only);
 * lib/content -> nothing of the site but the Studio's schema types (schema-rules.ts only);
 * lib/publisher-routes.ts -> the Studio's studio/publisherApi.ts (the addresses the Studio calls);
 * lib/routes.ts -> the Studio's studio/schemaTypes/sitePages.ts (the site's pages);
 * studio -> nothing of the site;
 * site-build (the build and the export's rewrites) -> lib; server (the publisher) -> lib and
 * site-build/headers.ts (the live site's headers, which it applies), never the other way;
 * scripts -> lib, server, site-build. Enforced with ESLint's own no-restricted-imports; no circles
 * (import/no-cycle).
 */
const pattern = (group, message, extra = {}) => ({ group, message, ...extra })
const noApp = pattern(['@/app/*', '**/app/*'], 'Nothing imports from app/: routes are the top of the graph.')
const noComponents = pattern(
  ['@/components/*', '**/components/*'],
  'lib/ and scripts/ never import UI components.',
)
const noScripts = pattern(
  ['@/scripts/*', '**/scripts/*'],
  'scripts/ are command-line entry points, not libraries.',
)
const noContentSource = pattern(
  ['@/lib/content', '@/lib/content/*', '**/lib/content', '**/lib/content/*'],
  'Components take plain props; only app/ routes read content (type imports are fine).',
  { allowTypeImports: true },
)
// Relative ('../../studio/…') or aliased ('@/studio/…') imports of the Studio project.
const noStudio = {
  regex: '^(@/|(\\.\\./)+)studio/',
  message:
    'studio/ is a separate Sanity project; the site never imports it (see the app/(studio)/studio exception).',
}
const noServer = pattern(
  ['@/server/*', '**/server/*'],
  'server/ is the publisher, a program of its own: share through lib/, never import it.',
)
const noSiteBuild = pattern(
  ['@/site-build', '@/site-build/*', '**/site-build', '**/site-build/*'],
  'site-build/ is the build, a program of its own: share through lib/.',
)
const noSite = pattern(
  ['@/*', '**/app/*', '**/components/*', '**/lib/*', '**/scripts/*'],
  'studio/ is a separate Sanity project: it imports nothing from the site.',
)

/**
 * lib/'s rules, but for one file of studio/, which a single lib/ module may import.
 * @param studioFile its path under studio/, without `.ts`, as a regex fragment (e.g. 'schemaTypes/index')
 */
const libImportingOneStudioFile = (studioFile) => [
  noApp,
  noComponents,
  noScripts,
  noServer,
  noSiteBuild,
  { ...noStudio, regex: `^(@/|(\\.\\./)+)studio/(?!${studioFile}(\\.ts)?$)` },
]

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  globalIgnores([
    'node_modules/**',
    '.cache/**',
    '.next/**',
    '.next-preview/**',
    'out/**',
    'tests/fixtures/empty-page/.next/**',
    'tests/fixtures/empty-page/out/**',
    'tests/fixtures/empty-page/next-env.d.ts',
    'tests/fixtures/next-export/.next/**',
    'tests/fixtures/next-export/out/**',
    'tests/fixtures/next-export/next-env.d.ts',
    '.site*/**',
    'data/**',
    'public/media/**',
    'studio/dist/**',
    'studio/.sanity/**',
    'lib/content/sanity.types.ts',
    'next-env.d.ts',
  ]),
  {
    files: ['components/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [noApp, noScripts, noContentSource, noStudio, noServer, noSiteBuild] },
      ],
    },
  },
  {
    files: ['lib/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [noApp, noComponents, noScripts, noStudio, noServer, noSiteBuild] },
      ],
    },
  },
  {
    // The publisher serves and builds; of the build it reads only the live site's headers.
    files: ['server/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noApp,
            noComponents,
            noScripts,
            noStudio,
            { regex: '^(@/|(\\.\\./)+)site-build/(?!headers(\\.ts)?$)', message: noSiteBuild.message },
          ],
        },
      ],
    },
  },
  {
    // The build runs inside `npm run build`; it never imports the publisher.
    files: ['site-build/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [noApp, noComponents, noScripts, noStudio, noServer] }],
    },
  },
  {
    files: ['scripts/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noApp, noComponents, noStudio] }] },
  },
  {
    files: ['studio/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noSite] }] },
  },
  {
    files: ['app/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noScripts, noStudio, noSiteBuild] }] },
  },
  {
    // The one exception: the /studio route embeds Sanity Studio (next-sanity's NextStudio),
    // which needs the Studio's config object itself. Only studio/sanity.config.ts, and only here.
    files: ['app/(studio)/studio/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noScripts,
            { ...noStudio, regex: '^(@/|(\\.\\./)+)studio/(?!sanity\\.config(\\.ts)?$)' },
          ],
        },
      ],
    },
  },
  {
    // The second exception: the build runs the Studio schema's own validation rules
    // (one place for every content rule). Only the schema types, and only here.
    files: ['lib/content/schema-rules.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: libImportingOneStudioFile('schemaTypes/index') }],
    },
  },
  {
    // The third exception: the publisher's addresses are written once. The three the Studio
    // calls live in studio/publisherApi.ts (the Studio imports nothing of the site), and
    // lib/publisher-routes.ts exports them again with the others. Only that file, and only here.
    files: ['lib/publisher-routes.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: libImportingOneStudioFile('publisherApi') }],
    },
  },
  {
    // The fourth exception: the site's pages are written once, in studio/schemaTypes/sitePages.ts
    // (the Studio imports nothing of the site), and lib/routes.ts exports them again.
    files: ['lib/routes.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: libImportingOneStudioFile('schemaTypes/sitePages') }],
    },
  },
  {
    // No import circle: each module can be read, and tested, after the ones it imports.
    files: ['{app,components,lib,server,site-build,scripts,studio}/**/*.{ts,tsx,mjs}'],
    settings: { 'import/ignore': ['node_modules'] },
    rules: { 'import/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Every package the code imports is declared: none is reached only because another
    // package happens to depend on it. The Studio's packages install once, at the root,
    // so its files may use the root's declarations as well as studio/package.json's.
    files: ['**/*.{ts,tsx,mjs,js,cjs}'],
    rules: {
      'import/no-extraneous-dependencies': [
        'error',
        { devDependencies: true, packageDir: [import.meta.dirname, `${import.meta.dirname}/studio`] },
      ],
    },
  },
])
