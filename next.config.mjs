/**
 * Static export only (ARCHITECTURE.md): every route becomes HTML in out/;
 * no API routes, no middleware, no image optimisation server.
 * @type {import('next').NextConfig}
 */
const nextConfig = {
  output: 'export',
  // Content images are copied into public/media/ at build time (scripts/sync-media.ts)
  // and already sized; there is no server to optimise them.
  images: { unoptimized: true },
  reactStrictMode: true,
  poweredByHeader: false,
}

export default nextConfig
