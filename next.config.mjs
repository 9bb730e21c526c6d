import { PHASE_PRODUCTION_SERVER } from 'next/constants.js'
import { codeVersion } from './lib/code-version.ts'
import { buildingPreviewServer } from './lib/next-target.ts'

/**
 * One app, two outputs (docs/architecture.md, "Two outputs of one app"):
 * - the static export for visitors (`npm run build`: `output: 'export'`, into out/);
 * - the preview server for editors (`npm run build:preview`, NEXT_TARGET=preview-server,
 *   into .next-preview/), which the publisher runs in its own process, in Next's draft
 *   mode, for requests with an open preview session. The publisher loads it with the
 *   production-server phase, which only ever means the preview server.
 * @param {string} phase Next's phase (next/constants)
 * @returns {import('next').NextConfig}
 */
export default function nextConfig(phase) {
  const previewServer = phase === PHASE_PRODUCTION_SERVER || buildingPreviewServer()
  return {
    ...(previewServer
      ? // Its process compresses its answers itself, brotli included (server/preview/preview-renderer.ts, `compressed`).
        { distDir: PREVIEW_SERVER_DIST_DIR, compress: false }
      : {
          output: 'export',
          // Visual editing exists only on the preview server: in the export its component
          // is one that renders nothing and ships no client code.
          turbopack: { resolveAlias: { [VISUAL_EDITING]: './components/preview/NoVisualEditing.tsx' } },
        }),
    // Content images are copied into public/media/ at build time (scripts/check-content.ts)
    // and already sized; there is no server to optimise them.
    images: { unoptimized: true },
    reactStrictMode: true,
    poweredByHeader: false,
    // The same code gives the same bytes: the build id is the code's version, not a random
    // one per build, so a publish leaves every page whose content did not change exactly
    // as it was (and the next publish's files can be taken from the live build).
    generateBuildId: async () => `c${(await codeVersion(process.cwd())).slice(0, 24)}`,
    experimental: {
      // The stylesheet (Tailwind, ~6.5 KiB compressed) goes inline in each page's <head>:
      // a render-blocking request costs a phone a round trip before the first paint
      // (docs/speed.md: LCP 1.1 s instead of 1.8 s with Lighthouse's applied throttling).
      inlineCss: true,
      // The site and the Studio each have a root layout of their own (route groups), so
      // the 404 page is app/global-not-found.tsx, which brings its own document.
      globalNotFound: true,
    },
    // A publish changes content, not code: the publisher's builds (server/main.ts sets
    // PUBLISH_BUILD=1) skip Next's type check, a third of a warm build; so does the
    // preview server's build. `npm run build`, `npm test` and CI still type-check every
    // change to the code.
    typescript: { ignoreBuildErrors: process.env.PUBLISH_BUILD === '1' || previewServer },
  }
}

/** The import of editors' visual editing (app/site-document.tsx), aliased away in the export. */
const VISUAL_EDITING = '@/components/preview/PreviewVisualEditing'

/** Where the preview server's build goes (the export's build uses Next's default, .next/). */
export const PREVIEW_SERVER_DIST_DIR = '.next-preview'
