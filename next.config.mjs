/**
 * Static export only (docs/architecture.md, "Decisions already taken"): every route
 * becomes HTML in out/; no API routes, no middleware, no image optimisation server.
 * @type {import('next').NextConfig}
 */
const nextConfig = {
  output: 'export',
  // Content images are copied into public/media/ at build time (scripts/sync-media.ts)
  // and already sized; there is no server to optimise them.
  images: { unoptimized: true },
  reactStrictMode: true,
  poweredByHeader: false,
  // The stylesheet (Tailwind, ~6.5 KiB compressed) goes inline in each page's <head>:
  // a render-blocking request costs a phone a round trip before the first paint
  // (docs/speed.md: LCP 1.1 s instead of 1.8 s with Lighthouse's applied throttling).
  experimental: { inlineCss: true },
  // A publish changes content, not code: the publisher's builds (server/main.ts sets
  // PUBLISH_BUILD=1) skip Next's type check, a third of a warm build. `npm run build`,
  // `npm test` and CI still type-check every change to the code.
  typescript: { ignoreBuildErrors: process.env.PUBLISH_BUILD === '1' },
}

export default nextConfig
