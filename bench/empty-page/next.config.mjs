/**
 * The benchmark baseline (scripts/bench): an empty static-export page built with
 * the same Next.js, React and settings as the site, served the same way.
 * @type {import('next').NextConfig}
 */
const nextConfig = {
  output: 'export',
  images: { unoptimized: true },
  reactStrictMode: true,
  poweredByHeader: false,
}

export default nextConfig
