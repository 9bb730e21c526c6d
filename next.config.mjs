import { PHASE_PRODUCTION_SERVER } from 'next/constants.js'
import { codeVersion } from './lib/code-version.ts'
import { buildingPreviewServer } from './lib/next-target.ts'

/**
 * One app, two outputs (docs/architecture.md, "Two outputs of one app"): the static export for
 * visitors, and the preview server for editors (NEXT_TARGET=preview-server, or the production-server
 * phase, in which the publisher only ever loads the preview server).
 * @param {string} phase Next's phase (next/constants)
 * @returns {import('next').NextConfig}
 */
export default function nextConfig(phase) {
  const previewServer = phase === PHASE_PRODUCTION_SERVER || buildingPreviewServer()
  return {
    ...(previewServer
      ? // Its process compresses its answers itself, brotli included (server/preview/preview-renderer.ts, `compressed`).
        { distDir: PREVIEW_SERVER_DIST_DIR, compress: false }
      : // Visual editing exists only on the preview server: the export's component renders nothing.
        {
          output: 'export',
          turbopack: { resolveAlias: { [VISUAL_EDITING]: './components/preview/NoVisualEditing.tsx' } },
        }),
    // Content images are copied into public/media/ at build time, already sized.
    images: { unoptimized: true },
    reactStrictMode: true,
    poweredByHeader: false,
    // The build id is the code's version: a publish leaves every page whose content did not change byte for byte.
    generateBuildId: async () => `c${(await codeVersion(process.cwd())).slice(0, 24)}`,
    experimental: {
      // The stylesheet goes inline in each page's <head>: a render-blocking request costs a phone a round trip (docs/speed.md).
      inlineCss: true,
      // The site and the Studio each have a root layout, so the 404 page is app/global-not-found.tsx.
      globalNotFound: true,
    },
    // A publish changes content, not code: its builds (PUBLISH_BUILD=1) and the preview server's skip Next's type check.
    typescript: { ignoreBuildErrors: process.env.PUBLISH_BUILD === '1' || previewServer },
  }
}

/** The import of editors' visual editing (app/site-document.tsx), aliased away in the export. */
const VISUAL_EDITING = '@/components/preview/PreviewVisualEditing'

/** Where the preview server's build goes (the export's build uses Next's default, .next/). */
export const PREVIEW_SERVER_DIST_DIR = '.next-preview'
